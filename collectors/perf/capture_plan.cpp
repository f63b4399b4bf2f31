#include "collectors/perf/capture_plan.hpp"

#include <algorithm>

namespace apcgate::collectors::perf {
namespace {

// A configured counter this collector knows how to open: (type, config, group).
struct Programmable {
    std::uint32_t type = 0;
    std::uint64_t config = 0;
    int group = 0;
};

std::optional<Programmable> programmable(const Capabilities& caps, const model::KeyedCounter& k) {
    for (const SoftwareCounter* sw : caps.software)
        if (k.counter == sw->counter) return Programmable{PERF_TYPE_SOFTWARE, sw->config, 0};
    for (std::size_t i = 0; i < caps.clusters.size(); ++i) {
        const HwCluster& c = caps.clusters[i];
        const int group = static_cast<int>(i) + 1;
        if (k.set != nullptr && k.set->name == set_name(c) && k.event)
            return Programmable{c.raw_type, *k.event, group};
        if (k.counter == cycle_counter_name(c))
            return Programmable{PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, group};
    }
    return std::nullopt;
}

}  // namespace

std::size_t ring_bytes_for(bool privileged, std::size_t cpus) {
    // Unprivileged users may lock perf_event_mlock_kb (516 KiB by default) per CPU: one page
    // for the control page, 128 for data.
    if (!privileged) return 512u << 10;
    // A budget shared by the CPUs, as a power of two per CPU within [1, 8] MiB: room for about
    // half a second of a saturated 2-CPU machine's switches if the reader is held up.
    constexpr std::size_t kBudget = 16u << 20;
    std::size_t per_cpu = 8u << 20;
    while (per_cpu > (1u << 20) && per_cpu * std::max<std::size_t>(cpus, 1) > kBudget) per_cpu /= 2;
    return per_cpu;
}

model::Nanos counter_period_for(const model::CaptureSettings& settings) {
    constexpr model::Nanos kMin = 10'000'000;
    const int hz = model::sample_rate_hz(settings.sample_rate);
    if (hz > 0) return std::max<model::Nanos>(model::kNanosPerSecond / hz, kMin);
    const int live_ms = settings.live_rate_ms > 0 ? settings.live_rate_ms : 100;
    return std::max<model::Nanos>(static_cast<model::Nanos>(live_ms) * 1'000'000, kMin);
}

PlannedCapture plan_capture(const Capabilities& caps, const CaptureContext& ctx,
                            std::vector<pid_t> targets, bool from_exec) {
    PlannedCapture p;
    SessionPlan& s = p.session;
    const bool follow = !(targets.size() == 1 && targets.front() == -1);
    s.cpus = caps.cpus;
    s.targets = std::move(targets);
    s.kernel = caps.kernel;
    s.enable_on_exec = from_exec;
    s.scale = !follow;
    s.sample_hz = caps.clock_sampling ? model::sample_rate_hz(ctx.settings.sample_rate) : 0;
    s.callchain = ctx.settings.call_stack_unwinding;

    if (caps.activity()) p.activity_key = ctx.counters.key(kActivityCounter);
    p.lost_key = ctx.counters.key(kLostCounter);
    p.repaired_switches_key = ctx.counters.key(kRepairedSwitchesCounter);
    if (p.activity_key) {
        // The switch records say who runs when: system-wide, some kernels leave switches out of
        // the tracepoint that the records have (switch_timeline.hpp); following tasks, they say
        // when a followed task starts running. Their preempt flag tells a runnable task from a
        // waiting one, so system-wide the tracepoint is kept for the rest of the wait state only
        // (uninterruptible sleep: Io), and samples nothing else. Following tasks, its per-task
        // samples give every switch-out's wait state.
        if (caps.sched_switch) s.sched_switch_id = caps.sched_switch->id;
        s.context_switch = caps.switch_records;
        if (!follow && s.context_switch && s.sched_switch_id)
            s.sched_switch_filter = kUninterruptibleSwitchFilter;
    }
    if (caps.cpu_idle) s.cpu_idle_id = caps.cpu_idle->id;

    for (const model::KeyedCounter& k : ctx.counters.enabled()) {
        if (k.counter == kActivityCounter || k.counter == kLostCounter ||
            k.counter == kRepairedSwitchesCounter)
            continue;
        const auto prog = programmable(caps, k);
        if (!prog) {
            if (k.set != nullptr) p.ignored.push_back(k.counter);
            continue;
        }
        s.counters.push_back({k.key, prog->type, prog->config, k.counter, prog->group});
        if (k.count && *k.count > 0)
            s.samplers.push_back(
                {prog->type, prog->config, static_cast<std::uint64_t>(*k.count), k.counter});
    }

    p.normalizer.follow = follow;
    p.normalizer.switch_out_from_tracepoint = follow && s.sched_switch_id.has_value();
    if (caps.sched_switch) {
        if (auto l = SchedSwitchLayout::from(caps.sched_switch->format))
            p.normalizer.sched_switch = *l;
    }
    if (caps.cpu_idle) {
        if (auto l = CpuIdleLayout::from(caps.cpu_idle->format)) p.normalizer.cpu_idle = *l;
    }
    s.ring_bytes = ring_bytes_for(caps.kernel, caps.cpus.size());
    p.counter_period = counter_period_for(ctx.settings);
    return p;
}

}  // namespace apcgate::collectors::perf
