#include "collectors/procfs/file_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace apcgate::collectors::procfs {

wire::UniqueFd open_read_only(const std::filesystem::path& path) {
    int fd = -1;
    do {
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    return wire::UniqueFd(fd);
}

bool PolledFile::open() {
    fd_ = open_read_only(path_);
    return fd_.valid();
}

std::optional<std::string_view> PolledFile::read_open() {
    std::size_t len = 0;
    for (;;) {
        if (len == buf_.size()) buf_.resize(buf_.size() * 2);
        const std::size_t room = buf_.size() - len;
        const ssize_t n = ::pread(fd_.get(), buf_.data() + len, room, static_cast<off_t>(len));
        if (n < 0) {
            if (errno == EINTR) continue;
            return std::nullopt;
        }
        len += static_cast<std::size_t>(n);
        // procfs (seq_file) fills the whole request unless the content ends first, so a short
        // read is the end: this saves the extra read that would return 0 at EOF.
        if (static_cast<std::size_t>(n) < room) break;
    }
    return std::string_view(buf_.data(), len);
}

std::optional<std::string_view> PolledFile::read() {
    if (fd_.valid()) {
        auto text = read_open();
        if (text && !text->empty()) return text;
    }
    // Not open yet, failed, or empty (procfs files are never empty; a regular file that was
    // truncated and unlinked is): reopen once by path.
    if (!open()) return std::nullopt;
    auto text = read_open();
    if (!text) fd_.reset();
    return text;
}

bool read_file(const std::filesystem::path& path, std::string& out) {
    out.clear();
    wire::UniqueFd fd = open_read_only(path);
    if (!fd.valid()) return false;
    char chunk[4096];
    for (;;) {
        const ssize_t n = ::read(fd.get(), chunk, sizeof chunk);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        if (n == 0) return true;
        out.append(chunk, static_cast<std::size_t>(n));
    }
}

std::optional<std::string> read_link(const std::filesystem::path& path) {
    std::string target(256, '\0');
    for (;;) {
        const ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
        if (n < 0) return std::nullopt;
        if (static_cast<std::size_t>(n) < target.size()) {
            target.resize(static_cast<std::size_t>(n));
            return target;
        }
        if (target.size() >= 65536) return std::nullopt;  // PATH_MAX is 4096: not a real link
        target.resize(target.size() * 2);                 // may be truncated: retry larger
    }
}

}  // namespace apcgate::collectors::procfs
