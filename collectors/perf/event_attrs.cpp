#include "collectors/perf/event_attrs.hpp"

#include <time.h>

#include <cstring>

#include "collectors/perf/record_parser.hpp"
#include "protocol/model/timeline_clock.hpp"

namespace apcgate::collectors::perf {
namespace {

perf_event_attr base(const AttrCommon& c, std::uint32_t type, std::uint64_t config) {
    perf_event_attr a;
    std::memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    a.disabled = 1;
    a.inherit = c.inherit ? 1 : 0;
    a.enable_on_exec = c.enable_on_exec ? 1 : 0;
    a.exclude_kernel = c.kernel ? 0 : 1;
    a.exclude_callchain_kernel = c.kernel ? 0 : 1;
    a.exclude_hv = 1;
    a.use_clockid = 1;
    a.clockid = model::kTimelineClock;
    a.sample_id_all = 1;
    a.sample_type = sideband_sample_type();
    return a;
}

}  // namespace

std::uint64_t sideband_sample_type() {
    return kSampleIdentifier | kSampleTid | kSampleTime | kSampleCpu;
}

std::uint64_t tracepoint_sample_type() {
    return sideband_sample_type() | kSampleRaw;
}

std::uint64_t sampler_sample_type(bool callchain) {
    return sideband_sample_type() | kSampleIp | kSamplePeriod | (callchain ? kSampleCallchain : 0);
}

perf_event_attr sideband_attr(const AttrCommon& c, bool context_switch, std::size_t wakeup_bytes) {
    perf_event_attr a = base(c, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
    a.mmap = 1;  // with mmap2: MMAP2 records, executable mappings only
    a.mmap2 = 1;
    a.comm = 1;
    a.comm_exec = 1;
    a.task = 1;
    a.context_switch = context_switch ? 1 : 0;
    a.watermark = 1;
    a.wakeup_watermark = static_cast<std::uint32_t>(wakeup_bytes);
    return a;
}

perf_event_attr tracepoint_attr(const AttrCommon& c, std::uint32_t id) {
    perf_event_attr a = base(c, PERF_TYPE_TRACEPOINT, id);
    a.sample_period = 1;
    a.sample_type = tracepoint_sample_type();
    // Tracepoints fire in the kernel: excluding it would drop every hit.
    a.exclude_kernel = 0;
    return a;
}

perf_event_attr clock_sampler_attr(const AttrCommon& c, int hz, bool callchain) {
    perf_event_attr a = base(c, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
    a.sample_period = hz > 0 ? 1'000'000'000ull / static_cast<unsigned>(hz) : 1'000'000;
    a.sample_type = sampler_sample_type(callchain);
    return a;
}

perf_event_attr event_sampler_attr(const AttrCommon& c, std::uint32_t type, std::uint64_t config,
                                   std::uint64_t period, bool callchain) {
    perf_event_attr a = base(c, type, config);
    a.sample_period = period;
    a.sample_type = sampler_sample_type(callchain);
    return a;
}

perf_event_attr counter_attr(const AttrCommon& c, std::uint32_t type, std::uint64_t config) {
    perf_event_attr a = base(c, type, config);
    a.read_format =
        PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    a.sample_id_all = 0;
    a.sample_type = 0;
    return a;
}

}  // namespace apcgate::collectors::perf
