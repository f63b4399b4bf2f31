#include "daemon/service/heap_policy.hpp"

#include <malloc.h>

namespace apcgate::daemon {

bool use_capture_heap_policy() {
    // Setting the threshold also stops glibc from adjusting it (and the trim threshold) itself.
    constexpr int kMappedFrom = 128 * 1024;  // glibc's own starting value
    const bool threshold = ::mallopt(M_MMAP_THRESHOLD, kMappedFrom) == 1;
    const bool arenas = ::mallopt(M_ARENA_MAX, 1) == 1;
    return threshold && arenas;
}

}  // namespace apcgate::daemon
