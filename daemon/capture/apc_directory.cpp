#include "daemon/capture/apc_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include "protocol/wire/byte_writer.hpp"

namespace apcgate::daemon {

namespace {

Error os_error(const std::filesystem::path& path, std::string_view what) {
    Error e = Error::at(ErrorKind::Io, std::string(what) + ": " + std::strerror(errno));
    e.input = path.string();
    return e;
}

// Writes `first` then `second` with writev() until done; regular files may still return short
// counts (e.g. disk full).
bool write_all(int fd, std::span<const std::uint8_t> first, std::span<const std::uint8_t> second) {
    while (!first.empty() || !second.empty()) {
        // NOLINTBEGIN(cppcoreguidelines-pro-type-const-cast): iovec is for reading and writing
        iovec io[2] = {{const_cast<std::uint8_t*>(first.data()), first.size()},
                       {const_cast<std::uint8_t*>(second.data()), second.size()}};
        // NOLINTEND(cppcoreguidelines-pro-type-const-cast)
        const bool both = !first.empty();
        const ssize_t n = ::writev(fd, both ? io : io + 1, both ? 2 : 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        const auto done = static_cast<std::size_t>(n);
        const std::size_t of_first = std::min(done, first.size());
        first = first.subspan(of_first);
        second = second.subspan(done - of_first);
    }
    return true;
}

// Frames at least this large are written straight from the encoder's buffer.
constexpr std::size_t kDirectWrite = std::size_t{16} * 1024;
// The writeback of the data file is started each time this much more was written.
constexpr std::uint64_t kWritebackBytes = 8 << 20;
// Disk space is reserved a quarter of the data file's size ahead of its end, within these
// bounds (see reserve()): what a conversion killed at any moment leaves allocated past its data
// stays a small share of it.
constexpr std::uint64_t kMinReserveAhead = 256 << 10;
constexpr std::uint64_t kMaxReserveAhead = 8 << 20;

// Moves an old data file aside and deletes it on a thread (see the header); an empty thread
// when there was none (or it could not be moved: O_TRUNC then empties it in place).
std::thread remove_aside(const std::filesystem::path& dir, const std::filesystem::path& data) {
    const std::filesystem::path old = dir / ("." + std::string(kApcDataFile) + ".old");
    if (::rename(data.c_str(), old.c_str()) != 0) return {};
    try {
        return std::thread([old] { ::unlink(old.c_str()); });
    } catch (const std::system_error&) {
        ::unlink(old.c_str());
        return {};
    }
}

}  // namespace

ApcDirectory::ApcDirectory(std::filesystem::path dir, wire::UniqueFd data, std::thread remover,
                           Durability durability)
    : dir_(std::move(dir)),
      data_(std::move(data)),
      reserving_(durability == Durability::Cached),
      remover_(std::move(remover)),
      durability_(durability) {}

ApcDirectory::~ApcDirectory() {
    give_back_reserve();
    end_removal();
}

// Without it ext4 reserves and maps a block for every page written (delayed allocation); with
// the blocks already allocated, each page only takes one, which is a visible share of the CPU a
// conversion spends writing (docs/performance.md). KEEP_SIZE: the file's size, and what a
// reader of a capture still being written sees, stay those of the frames written. Filesystems
// without fallocate, or a full disk, just go on without reserving (a full disk shows at write).
// Only a conversion reserves: a recording writes at the target's live rate, where the saving is
// nothing, and is the capture most likely to be killed and kept, with what it reserved.
void ApcDirectory::reserve(std::uint64_t upto) {
    if (!reserving_ || upto <= reserved_) return;
    const std::uint64_t ahead = std::clamp(upto / 4, kMinReserveAhead, kMaxReserveAhead);
    const std::uint64_t length = std::max(upto - reserved_, ahead);
    if (::fallocate(data_.get(), FALLOC_FL_KEEP_SIZE, static_cast<off_t>(reserved_),
                    static_cast<off_t>(length)) != 0) {
        reserving_ = false;
        return;
    }
    reserved_ += length;
}

// What was reserved past the file's end is given back: truncating to its own size frees it.
void ApcDirectory::give_back_reserve() {
    if (reserved_ <= file_bytes_ || !data_.valid()) return;
    if (::ftruncate(data_.get(), static_cast<off_t>(file_bytes_)) == 0) reserved_ = file_bytes_;
}

void ApcDirectory::end_removal() {
    if (remover_.joinable()) remover_.join();
}

Result<std::unique_ptr<ApcDirectory>> ApcDirectory::create(const std::filesystem::path& dir,
                                                           bool force, Durability durability) {
    if (::mkdir(dir.c_str(), 0755) != 0) {
        if (errno != EEXIST) return os_error(dir, "cannot create capture directory");
        if (!force) {
            Error e = Error::at(ErrorKind::Refused,
                                "already exists (use --force to overwrite its capture files)");
            e.input = dir.string();
            return e;
        }
        struct stat st {};
        if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
            // Not Refused: --force was given, and its exit code would tell the user to give it.
            Error e = Error::at(ErrorKind::Usage, "exists and is not a directory");
            e.input = dir.string();
            return e;
        }
    }
    const std::filesystem::path data = dir / kApcDataFile;
    if (force) {
        const std::filesystem::path statistics = dir / kStatisticsFile;
        if (::unlink(statistics.c_str()) != 0 && errno != ENOENT)
            return os_error(statistics, "cannot delete the old capture's statistics");
    }
    std::thread remover = force ? remove_aside(dir, data) : std::thread();
    wire::UniqueFd fd(::open(data.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!fd.valid()) {
        const Error e = os_error(data, "cannot create APC data file");
        if (remover.joinable()) remover.join();
        return e;
    }
    return std::unique_ptr<ApcDirectory>(
        new ApcDirectory(dir, std::move(fd), std::move(remover), durability));
}

Status ApcDirectory::write_documents(const CaptureDocuments& documents) {
    for (const auto& [name, text] :
         {std::pair<std::string_view, const std::string&>{"captured.xml", documents.captured},
          {"session.xml", documents.session},
          {"events.xml", documents.events}}) {
        if (Status st = write_document(name, text); !st) return st;
    }
    return {};
}

Status ApcDirectory::write_document(std::string_view name, std::string_view content) {
    const std::filesystem::path final_path = dir_ / name;
    const std::filesystem::path tmp = dir_ / ("." + std::string(name) + ".tmp");
    wire::UniqueFd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!fd.valid()) return os_error(tmp, "cannot create");
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): chars as bytes
    const std::span bytes(reinterpret_cast<const std::uint8_t*>(content.data()), content.size());
    if (!write_all(fd.get(), bytes, {})) return os_error(tmp, "cannot write");
    fd.reset();
    if (::rename(tmp.c_str(), final_path.c_str()) != 0)
        return os_error(final_path, "cannot rename");
    return {};
}

void ApcDirectory::frame(std::span<const std::uint8_t> body) {
    const std::size_t at = pending_.size();
    pending_.resize(at + 4);
    wire::patch_le32(pending_, at, static_cast<std::uint32_t>(body.size()));
    bytes_ += 4 + body.size();
    if (body.size() < kDirectWrite) {
        pending_.insert(pending_.end(), body.begin(), body.end());
        return;
    }
    // A full frame (a converter writes hundreds of MB of them) goes to the file as it is, after
    // what is pending, in one writev(), instead of being copied into the pending buffer first.
    write(pending_, body);
    pending_.clear();
}

void ApcDirectory::flush() {
    if (pending_.empty()) return;
    write(pending_, {});
    pending_.clear();
}

void ApcDirectory::write(std::span<const std::uint8_t> first,
                         std::span<const std::uint8_t> second) {
    if (!status_) return;
    reserve(file_bytes_ + first.size() + second.size());
    if (!write_all(data_.get(), first, second)) {
        status_ = os_error(dir_ / kApcDataFile, "cannot write APC data");
        return;
    }
    file_bytes_ += first.size() + second.size();
    if (durability_ == Durability::Synced && file_bytes_ - writeback_ >= kWritebackBytes) {
        // Only a start (no waiting); errors, if any, are fsync()'s to report.
        ::sync_file_range(data_.get(), static_cast<off64_t>(writeback_),
                          static_cast<off64_t>(file_bytes_ - writeback_), SYNC_FILE_RANGE_WRITE);
        writeback_ = file_bytes_;
    }
}

void ApcDirectory::finish() {
    flush();
    give_back_reserve();
    if (durability_ == Durability::Synced && status_ && ::fsync(data_.get()) != 0)
        status_ = os_error(dir_ / kApcDataFile, "fsync");
    end_removal();
}

}  // namespace apcgate::daemon
