#include "daemon/server/memory_release.hpp"

#include <cstdlib>  // defines __GLIBC__ when the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace apcgate::daemon {

void release_free_memory() {
#if defined(__GLIBC__)
    ::malloc_trim(0);
#endif
}

}  // namespace apcgate::daemon
