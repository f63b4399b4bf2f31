#include "collectors/fxt/page_release.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

namespace apcgate::collectors::fxt {

void PageRelease::release(std::size_t offset) {
    offset = std::min(offset, mapping_.size());
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    // Whole pages inside [released_, offset) only: a page the pass may still read stays. The
    // pages are found by address, which madvise() takes.
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): a page's address
    const auto first = reinterpret_cast<std::uintptr_t>(mapping_.data() + released_);
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): a page's address
    const auto last = reinterpret_cast<std::uintptr_t>(mapping_.data() + offset);
    const std::uintptr_t begin = (first + page - 1) / page * page;
    const std::uintptr_t end = last / page * page;
    if (begin < end) {
        // Advice only: should it fail, the pages stay until the file is unmapped.
        (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);  // NOLINT
    }
    released_ = offset;
}

}  // namespace apcgate::collectors::fxt
