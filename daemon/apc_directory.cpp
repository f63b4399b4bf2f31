#include "daemon/apc_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "protocol/wire/byte_writer.hpp"

namespace apcgate::daemon {

namespace {

Error os_error(const std::filesystem::path& path, std::string_view what) {
    Error e = Error::at(std::string(what) + ": " + std::strerror(errno));
    e.input = path.string();
    return e;
}

// write() until done; regular files may still return short counts (e.g. disk full).
bool write_all(int fd, const std::uint8_t* data, std::size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

// Frames at least this large are written straight from the encoder's buffer.
constexpr std::size_t kDirectWrite = 16 * 1024;

}  // namespace

ApcDirectory::ApcDirectory(std::filesystem::path dir, UniqueFd data)
    : dir_(std::move(dir)), data_(std::move(data)) {}

Result<std::unique_ptr<ApcDirectory>> ApcDirectory::create(const std::filesystem::path& dir,
                                                           bool force) {
    if (::mkdir(dir.c_str(), 0755) != 0) {
        if (errno != EEXIST) return os_error(dir, "cannot create capture directory");
        if (!force) {
            Error e = Error::at("already exists (use --force to overwrite its capture files)");
            e.input = dir.string();
            return e;
        }
        struct stat st {};
        if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
            Error e = Error::at("exists and is not a directory");
            e.input = dir.string();
            return e;
        }
    }
    const std::filesystem::path data = dir / kApcDataFile;
    UniqueFd fd(::open(data.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!fd.valid()) return os_error(data, "cannot create APC data file");
    return std::unique_ptr<ApcDirectory>(new ApcDirectory(dir, std::move(fd)));
}

Status ApcDirectory::write_document(std::string_view name, std::string_view content) {
    const std::filesystem::path final_path = dir_ / name;
    const std::filesystem::path tmp = dir_ / ("." + std::string(name) + ".tmp");
    UniqueFd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!fd.valid()) return os_error(tmp, "cannot create");
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): chars as bytes
    if (!write_all(fd.get(), reinterpret_cast<const std::uint8_t*>(content.data()), content.size()))
        return os_error(tmp, "cannot write");
    fd.reset();
    if (::rename(tmp.c_str(), final_path.c_str()) != 0) return os_error(final_path, "cannot rename");
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
    // what is pending, instead of being copied into the pending buffer first.
    flush();
    if (status_ && !write_all(data_.get(), body.data(), body.size()))
        status_ = os_error(dir_ / kApcDataFile, "cannot write APC data");
}

void ApcDirectory::flush() {
    if (pending_.empty()) return;
    if (status_ && !write_all(data_.get(), pending_.data(), pending_.size()))
        status_ = os_error(dir_ / kApcDataFile, "cannot write APC data");
    pending_.clear();
}

void ApcDirectory::finish() {
    flush();
    if (status_ && ::fsync(data_.get()) != 0) status_ = os_error(dir_ / kApcDataFile, "fsync");
}

}  // namespace apcgate::daemon
