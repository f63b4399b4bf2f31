// A read-only memory mapping of a whole file (RAII), the one every layer uses: captures and
// trace inputs are read in place, without copies and without holding them on the heap, and the
// kernel pages them in as readers move through them. The mapping outlives the descriptor. A file
// cut short while it is mapped does not end the process: see cut_at() and mapping_guard.hpp.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>

#include "protocol/wire/mapping_guard.hpp"
#include "protocol/wire/result.hpp"
#include "protocol/wire/unique_fd.hpp"

namespace apcgate::wire {

// What identifies one version of a file: a rewrite (e.g. between two captures) changes it.
struct FileIdentity {
    dev_t device = 0;
    ino_t inode = 0;
    off_t size = 0;
    std::int64_t mtime_ns = 0;
    bool operator==(const FileIdentity&) const = default;
};

// The identity of the file `st` describes (from stat() or fstat()).
inline FileIdentity identity_of(const struct stat& st) {
    FileIdentity id;
    id.device = st.st_dev;
    id.inode = st.st_ino;
    id.size = st.st_size;
    id.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    return id;
}

class MappedFile {
  public:
    // How the reader moves through the file, told to the kernel's read-ahead.
    enum class Access {
        Sequential,  // front to back (captures, archives read in order)
        Scattered,   // many cursors at once (per-thread buffers of a trace): read it all ahead
                     // when it fits the read-ahead limit, else paged in as the cursors move
    };
    // Maps `path` (a regular file; an empty one maps to an empty span). Errors name the file.
    // A Scattered file of at most `read_ahead_limit` bytes is read in whole at once (one
    // populate instead of a fault per page); a larger one is not: reading ahead more than the
    // page cache holds would evict its start before the readers get there, and read it twice.
    static Result<MappedFile> open(const std::filesystem::path& path,
                                   Access access = Access::Sequential,
                                   std::size_t read_ahead_limit = default_read_ahead_limit());
    // A quarter of the machine's memory.
    static std::size_t default_read_ahead_limit();
    // The identity of the file now at `path`, without mapping it.
    static Result<FileIdentity> identify(const std::filesystem::path& path);

    MappedFile() = default;
    MappedFile(MappedFile&& o) noexcept;
    MappedFile& operator=(MappedFile&& o) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile() { unmap(); }

    [[nodiscard]] std::span<const std::uint8_t> bytes() const { return {data_, size_}; }
    // Whether the file was cut short since it was mapped, and where: the lesser of its size now
    // and the first page a reader found gone past its end (mapping_guard.hpp). From there on the
    // mapping reads as zeros, so what a reader decoded from there is not the file's. (One
    // fstat(): ask once per batch, not per record.)
    [[nodiscard]] std::optional<std::size_t> cut_at() const;
    // The identity of the file as it was mapped.
    [[nodiscard]] const FileIdentity& identity() const { return identity_; }

  private:
    void unmap();

    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
    int guard_ = -1;  // the mapping's slot in mapping_guard, -1 for none
    UniqueFd fd_;     // kept open to see the file's size now, whatever its path names by then
    FileIdentity identity_;
};

}  // namespace apcgate::wire
