#include "collectors/perf/mapped_text.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "protocol/wire/unique_fd.hpp"

namespace apcgate::collectors::perf {

MappedText MappedText::read(const std::filesystem::path& proc_root, std::string_view relative,
                            std::size_t before, std::size_t after) {
    const wire::UniqueFd fd(::open((proc_root / relative).c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) return {};
    MappedText t;
    // Doubled as needed: page tables move, not bytes.
    t.mapping_ = wire::UniqueMapping::anonymous(std::size_t{1} << 20);
    if (!t.mapping_.valid()) return {};
    t.before_ = before;
    for (;;) {
        const std::size_t used = before + t.size_;
        if (t.mapping_.size() - used < after + 4096 && !t.mapping_.grow(t.mapping_.size() * 2))
            return {};
        const ssize_t n =
            ::read(fd.get(), t.mapping_.bytes() + used, t.mapping_.size() - used - after);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        t.size_ += static_cast<std::size_t>(n);
    }
    if (t.size_ == 0) return {};
    t.after_ = after;
    return t;
}

}  // namespace apcgate::collectors::perf
