// The capture commands' heap policy (daemon/service/heap_policy.hpp): a large block freed and
// asked for again is a mapping of its own each time, so freeing it hands its memory back. Each
// case runs in a child process, whose allocator settings this test may change freely.
#include "daemon/service/heap_policy.hpp"

#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

namespace apcgate::daemon {
namespace {

constexpr std::size_t kVectorOfEvents = std::size_t{1536} * 1024;  // 16 Ki events of 96 bytes

// In a child: allocates a large block, frees it, allocates one as large again, and exits 0
// when that second block is a mapping of its own (mallinfo2's count of mapped blocks went up).
int second_block_is_mapped(bool with_policy) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (with_policy && !use_capture_heap_policy()) ::_exit(2);
        void* first = std::malloc(kVectorOfEvents);
        if (first == nullptr) ::_exit(3);
        static_cast<volatile char*>(first)[0] = 1;
        std::free(first);
        const auto mapped_before = ::mallinfo2().hblks;
        void* second = std::malloc(kVectorOfEvents);
        if (second == nullptr) ::_exit(3);
        const bool mapped = ::mallinfo2().hblks > mapped_before;
        std::free(second);
        ::_exit(mapped ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#if defined(__SANITIZE_ADDRESS__)
#define APCGATE_GLIBC_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define APCGATE_GLIBC_MALLOC 0
#endif
#endif
#ifndef APCGATE_GLIBC_MALLOC
#define APCGATE_GLIBC_MALLOC 1
#endif

TEST(HeapPolicy, ALargeBlockFreedAndAskedForAgainIsMappedAgain) {
    if (!APCGATE_GLIBC_MALLOC) GTEST_SKIP() << "the sanitizer's allocator replaces glibc's";
    EXPECT_EQ(second_block_is_mapped(true), 0);
}

TEST(HeapPolicy, WithoutItGlibcServesTheSecondBlockFromTheHeap) {
    // What the policy is for: glibc raised its threshold when the first block was freed.
    if (!APCGATE_GLIBC_MALLOC) GTEST_SKIP() << "the sanitizer's allocator replaces glibc's";
    EXPECT_EQ(second_block_is_mapped(false), 1);
}

}  // namespace
}  // namespace apcgate::daemon
