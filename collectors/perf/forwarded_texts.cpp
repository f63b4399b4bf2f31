#include "collectors/perf/forwarded_texts.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "protocol/wire/unique_fd.hpp"

namespace apcgate::collectors::perf {

std::string read_proc_text(const std::filesystem::path& proc_root, std::string_view relative) {
    std::string text;
    const wire::UniqueFd fd(::open((proc_root / relative).c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) return text;
    char buf[16384];
    for (;;) {
        const ssize_t n = ::read(fd.get(), buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        // An error part way (a process that exited) keeps what was read, as a stream would.
        if (n <= 0) break;
        text.append(buf, static_cast<std::size_t>(n));
    }
    return text;
}

}  // namespace apcgate::collectors::perf
