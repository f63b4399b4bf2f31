// One run that both XRay and LTTng-UST trace: each call of marked() logs an XRay entry and exit
// and, halfway through, an LTTng tracef event "halfway N". Converted together, the events must
// fall inside their calls' spans: the test that an XRay log and an LTTng trace of one run land
// on one timeline (XRay's WallClockTime and LTTng's clock both relate to CLOCK_MONOTONIC).
//
//   xray_lttng_workload CALLS      (the log goes where XRAY_OPTIONS=xray_logfile_base=... says)
#include <lttng/tracef.h>

#include <cstdlib>
#include <ctime>

#include "xray/xray_interface.h"
#include "xray/xray_log_interface.h"

namespace {

long now_ns() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1'000'000'000L + t.tv_nsec;
}

// Busy, not asleep: the call's span is this long whatever the scheduler does.
void spin(long ns) {
    const long until = now_ns() + ns;
    while (now_ns() < until) {
    }
}

}  // namespace

constexpr long kHalfCallNs = 500'000;

[[clang::xray_always_instrument]] __attribute__((noinline)) void marked(int i) {
    spin(kHalfCallNs);
    tracef("halfway %d", i);
    spin(kHalfCallNs);
}

int main(int argc, char** argv) {
    const int calls = argc > 1 ? std::atoi(argv[1]) : 10;
    if (__xray_log_select_mode("xray-fdr") != XRayLogRegisterStatus::XRAY_REGISTRATION_OK) return 3;
    if (__xray_log_init_mode("xray-fdr",
                             "buffer_size=4096:buffer_max=64:func_duration_threshold_us=0") !=
        XRayLogInitStatus::XRAY_LOG_INITIALIZED)
        return 4;
    __xray_patch();
    for (int i = 0; i < calls; ++i) {
        marked(i);
        spin(kHalfCallNs);
    }
    __xray_unpatch();
    __xray_log_finalize();
    __xray_log_flushLog();
    return 0;
}
