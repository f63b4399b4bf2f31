// A program the XRay tests build with clang-14 -fxray-instrument and run, so that the tests read
// logs the real runtime (libclang-rt-14-dev) writes: several threads, recursion, a C++ method in
// a namespace, logged arguments, tail calls, custom and typed events.
//
//   xray_workload MODE THREADS ITERATIONS OPTIONS FEATURES
//     MODE      xray-fdr | xray-basic
//     OPTIONS   the mode's options, e.g. "buffer_size=256:buffer_max=100000"
//     FEATURES  letters: c = custom events, t = typed events (built with -DWITH_TYPED only),
//               r = two rounds of init/run/flush: two logs of one run,
//               dN = a recursion N calls deep in each iteration (N >= 1)
//
// The log goes where XRAY_OPTIONS=xray_logfile_base=... says. LLVM 14's event trampolines do
// not keep the stack aligned, so each event is logged from a function whose frame makes it
// aligned: custom events from one with a local buffer, typed events from a leaf.
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "xray/xray_interface.h"
#include "xray/xray_log_interface.h"

namespace {
int iterations = 1;
bool with_custom = false;
bool with_typed = false;
int deep_levels = 0;
}  // namespace

__attribute__((noinline)) void sink(const char* p) {
    asm volatile("" : : "r"(p) : "memory");
}

[[clang::xray_always_instrument]] __attribute__((noinline)) int leaf(int x) {
    asm volatile("");
    return x * 2;
}

[[clang::xray_always_instrument]] __attribute__((noinline)) int fib(int n) {
    return n < 2 ? leaf(n) : fib(n - 1) + fib(n - 2);
}

// A recursion `n` calls deep; the innermost, deep(1), tail-calls leaf. The asm keeps clang
// from turning it into a loop (accumulator recursion elimination).
[[clang::xray_always_instrument]] __attribute__((noinline)) int deep(int n) {
    if (n <= 1) return leaf(n);
    int r = deep(n - 1);
    asm volatile("" : "+r"(r));
    return r + 1;
}

[[clang::xray_always_instrument, clang::xray_log_args(1)]] __attribute__((noinline)) int with_arg(
    long a) {
    asm volatile("");
    return static_cast<int>(a) + 1;
}

[[clang::xray_always_instrument]] __attribute__((noinline)) void custom_event(int i) {
    char buf[24];
    const int n = std::snprintf(buf, sizeof buf, "custom %d", i);
    __xray_customevent(buf, static_cast<std::size_t>(n));
    sink(buf);
}

#ifdef WITH_TYPED
[[clang::xray_always_instrument]] __attribute__((noinline)) void typed_event() {
    static const char payload[] = "typed\x01payload";
    __xray_typedevent(7, payload, sizeof payload - 1);
}
#endif

[[clang::xray_always_instrument]] __attribute__((noinline)) int tail_callee(int x) {
    return leaf(x) + 1;
}
[[clang::xray_always_instrument]] __attribute__((noinline)) int tail_caller(int x) {
    return tail_callee(x + 1);
}

namespace shapes {
struct Square {
    [[clang::xray_always_instrument]] __attribute__((noinline)) static int area(int side) {
        return fib(side);
    }
};
}  // namespace shapes

void* worker(void* arg) {
    const long index = reinterpret_cast<long>(arg);
    long sum = 0;
    for (int k = 0; k < iterations; ++k) {
        sum += shapes::Square::area(4 + static_cast<int>(index % 3));
        sum += with_arg(k * 10 + index);
        if (with_custom) custom_event(k);
#ifdef WITH_TYPED
        if (with_typed) typed_event();
#endif
        sum += tail_caller(k);
        if (deep_levels > 0) sum += deep(deep_levels);
    }
    return reinterpret_cast<void*>(sum);
}

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: %s MODE THREADS ITERATIONS OPTIONS FEATURES\n", argv[0]);
        return 2;
    }
    const char* mode = argv[1];
    const int threads = std::atoi(argv[2]);
    iterations = std::atoi(argv[3]);
    with_custom = std::strchr(argv[5], 'c') != nullptr;
    with_typed = std::strchr(argv[5], 't') != nullptr;
    if (const char* d = std::strchr(argv[5], 'd')) deep_levels = std::atoi(d + 1);
    if (__xray_log_select_mode(mode) != XRayLogRegisterStatus::XRAY_REGISTRATION_OK) return 3;
    const int rounds = std::strchr(argv[5], 'r') != nullptr ? 2 : 1;
    for (int round = 0; round < rounds; ++round) {
        if (__xray_log_init_mode(mode, argv[4]) != XRayLogInitStatus::XRAY_LOG_INITIALIZED)
            return 4;
        __xray_patch();
        pthread_t ids[64];
        const int n = threads < 64 ? threads : 64;
        for (long i = 0; i < n; ++i)
            pthread_create(&ids[i], nullptr, worker, reinterpret_cast<void*>(i));
        for (int i = 0; i < n; ++i) pthread_join(ids[i], nullptr);
        __xray_unpatch();
        __xray_log_finalize();
        __xray_log_flushLog();
    }
    return 0;
}
