#include "protocol/wire/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "protocol/wire/unique_fd.hpp"

namespace apcgate::wire {
namespace {

Error os_error(const std::string& what, const std::filesystem::path& path) {
    return Error::at(ErrorKind::Io, what + ": " + std::strerror(errno)).in_input(path.string());
}

}  // namespace

Result<FileIdentity> MappedFile::identify(const std::filesystem::path& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return os_error("cannot stat", path);
    return identity_of(st);
}

std::size_t MappedFile::default_read_ahead_limit() {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page = ::sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return 0;
    return static_cast<std::size_t>(pages) / 4 * static_cast<std::size_t>(page);
}

Result<MappedFile> MappedFile::open(const std::filesystem::path& path, Access access,
                                    std::size_t read_ahead_limit) {
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) return os_error("cannot open", path);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return os_error("cannot stat", path);
    if (!S_ISREG(st.st_mode))
        return Error::at(ErrorKind::Unsupported, "not a regular file").in_input(path.string());
    MappedFile m;
    m.identity_ = identity_of(st);
    const auto size = static_cast<std::size_t>(st.st_size);
    if (size == 0) return m;
    const bool read_ahead = access == Access::Scattered && size <= read_ahead_limit;
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | (read_ahead ? MAP_POPULATE : 0),
                     fd.get(), 0);
    if (p == MAP_FAILED) return os_error("cannot map", path);
    if (access == Access::Sequential) ::madvise(p, size, MADV_SEQUENTIAL);
    if (read_ahead) ::madvise(p, size, MADV_WILLNEED);
    m.data_ = static_cast<const std::uint8_t*>(p);
    m.size_ = size;
    m.guard_ = mapping_guard::add(p, size);
    m.fd_ = std::move(fd);
    return m;
}

MappedFile::MappedFile(MappedFile&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)),
      size_(std::exchange(o.size_, 0)),
      guard_(std::exchange(o.guard_, -1)),
      fd_(std::move(o.fd_)),
      identity_(o.identity_) {}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
    if (this != &o) {
        unmap();
        data_ = std::exchange(o.data_, nullptr);
        size_ = std::exchange(o.size_, 0);
        guard_ = std::exchange(o.guard_, -1);
        fd_ = std::move(o.fd_);
        identity_ = o.identity_;
    }
    return *this;
}

std::optional<std::size_t> MappedFile::cut_at() const {
    std::optional<std::size_t> cut = mapping_guard::cut_at(guard_);
    struct stat st {};
    if (fd_.valid() && ::fstat(fd_.get(), &st) == 0 && st.st_size >= 0 &&
        static_cast<std::uint64_t>(st.st_size) < size_)
        cut = std::min(cut.value_or(size_), static_cast<std::size_t>(st.st_size));
    return cut;
}

void MappedFile::unmap() {
    mapping_guard::remove(std::exchange(guard_, -1));
    // munmap takes a non-const pointer; the mapping is ours and read-only.
    if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);  // NOLINT
    data_ = nullptr;
    size_ = 0;
}

}  // namespace apcgate::wire
