#include "collectors/perf/running_share.hpp"

#include <algorithm>

namespace apcgate::collectors::perf {

RunningShare::Cpu* RunningShare::cpu(std::int32_t cpu) {
    if (cpu < 0) return nullptr;
    auto it = cpus_.find(cpu);
    if (it != cpus_.end()) return &it->second;
    if (cpus_.size() >= kMaxCpus) return nullptr;  // a corrupt cpu field must not grow this
    return &cpus_[cpu];
}

void RunningShare::on_switch(std::int32_t cpu_id, bool running, model::Nanos ts) {
    Cpu* c = cpu(cpu_id);
    if (c == nullptr) return;
    // The first switch to idle says a task ran until it (since the period began).
    const bool was_running = c->seen_switch ? c->running : !running;
    if (was_running) c->busy += std::max<model::Nanos>(0, ts - std::max(c->since, c->period_start));
    c->seen_switch = true;
    c->running = running;
    c->since = std::max(ts, c->period_start);
}

std::optional<std::int64_t> RunningShare::end_period(std::int32_t cpu_id, model::Nanos ts) {
    Cpu* c = cpu(cpu_id);
    if (c == nullptr) return std::nullopt;
    const model::Nanos length = ts - c->period_start;
    if (length <= 0) return std::nullopt;
    if (c->seen_switch && c->running) c->busy += std::max<model::Nanos>(0, ts - c->since);
    const model::Nanos busy = std::clamp<model::Nanos>(c->busy, 0, length);
    c->period_start = ts;
    c->since = ts;
    c->busy = 0;
    // busy <= length, so busy * kFull cannot overflow for periods under ~29 years.
    return static_cast<std::int64_t>(busy * kFull / length);
}

}  // namespace apcgate::collectors::perf
