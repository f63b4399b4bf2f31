// The LTTng-UST test program: `ctf_ust_app N` writes N rounds of events from the main thread
// and from a second thread named "worker": apcgate_ctf_test:tick every round, :state every
// 2nd, lttng_ust_tracef every 5th and lttng_ust_tracelog every 7th (main thread only).
#include <lttng/tracef.h>
#include <lttng/tracelog.h>
#include <pthread.h>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <thread>

#include "ctf_test_provider.hpp"

namespace {

void rounds(long n, const char* label) {
    const int values[3] = {1, -2, 3};
    for (long k = 0; k < n; ++k) {
        lttng_ust_tracepoint(apcgate_ctf_test, tick, static_cast<int>(k), label,
                             static_cast<double>(k) / 4);
        if (k % 2 == 0)
            lttng_ust_tracepoint(apcgate_ctf_test, state, 0xa0u + static_cast<unsigned>(k % 16),
                                 static_cast<int>(k % 3), values, static_cast<unsigned>(k % 4));
    }
}

}  // namespace

int main(int argc, char** argv) {
    long n = 100;
    if (argc > 1) {
        const char* const end = argv[1] + std::strlen(argv[1]);
        const auto [at, ec] = std::from_chars(argv[1], end, n);
        if (ec != std::errc() || at != end || n < 0) {
            std::fprintf(stderr, "ctf_ust_app: not a count of rounds: %s\n", argv[1]);
            return 2;
        }
    }
    std::thread worker([n] {
        pthread_setname_np(pthread_self(), "worker");
        rounds(n, "worker");
    });
    rounds(n, "main");
    for (long k = 0; k < n; ++k) {
        if (k % 5 == 0) lttng_ust_tracef("tracef message %ld", k);
        if (k % 7 == 0)
            lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING, "tracelog %ld", k);
    }
    worker.join();
    return 0;
}
