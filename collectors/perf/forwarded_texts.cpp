#include "collectors/perf/forwarded_texts.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "protocol/wire/unique_fd.hpp"

namespace apcgate::collectors::perf {

std::vector<std::string> read_proc_pieces(const std::filesystem::path& proc_root,
                                          std::string_view relative) {
    constexpr std::size_t kPiece = std::size_t{64} * 1024;
    std::vector<std::string> pieces;
    const wire::UniqueFd fd(::open((proc_root / relative).c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) return pieces;
    for (;;) {
        if (pieces.empty() || pieces.back().size() == kPiece) pieces.emplace_back().reserve(kPiece);
        std::string& p = pieces.back();
        const std::size_t at = p.size();
        p.resize(kPiece);
        const ssize_t n = ::read(fd.get(), p.data() + at, kPiece - at);
        if (n < 0 && errno == EINTR) {
            p.resize(at);
            continue;
        }
        // An error part way (a process that exited) keeps what was read, as a stream would.
        p.resize(at + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
        if (n <= 0) break;
    }
    if (!pieces.empty() && pieces.back().empty()) pieces.pop_back();
    return pieces;
}

std::string read_proc_text(const std::filesystem::path& proc_root, std::string_view relative) {
    std::vector<std::string> pieces = read_proc_pieces(proc_root, relative);
    if (pieces.size() == 1) return std::move(pieces.front());
    std::size_t total = 0;
    for (const auto& p : pieces) total += p.size();
    std::string text;
    text.reserve(total);
    for (const auto& p : pieces) text += p;
    return text;
}

}  // namespace apcgate::collectors::perf
