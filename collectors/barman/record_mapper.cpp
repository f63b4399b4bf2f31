#include "collectors/barman/record_mapper.hpp"

#include <algorithm>

#include "collectors/barman/cpu_types.hpp"
#include "collectors/barman/record_kinds.hpp"

namespace apcgate::collectors::barman {
namespace {

std::optional<model::Rgb> colour_of(std::uint32_t colour) {
    // 0 is BM_ANNOTATE_COLOR_CYCLIC (no colour of its own); otherwise the low 24 bits are RGB
    // (the agent's macros set 0x1b in the top byte, other writers leave it 0).
    if (colour == 0) return std::nullopt;
    return model::Rgb{static_cast<std::uint8_t>(colour >> 16),
                      static_cast<std::uint8_t>(colour >> 8), static_cast<std::uint8_t>(colour)};
}

model::WaitState wait_of(std::uint8_t reason) {
    return reason == 0   ? model::WaitState::Contention
           : reason == 1 ? model::WaitState::Io
                         : model::WaitState::Other;
}

Error record_problem(std::string message, std::uint64_t offset, std::string_view kind) {
    Error e = Error::at(ErrorKind::Malformed, std::move(message));
    e.offset = offset;
    e.record = std::string(kind);
    return e;
}

}  // namespace

RecordMapper::RecordMapper(const Header& header, const CounterPlan& plan,
                           const model::CaptureCounters& counters, model::Nanos zero_ns,
                           bool evicted)
    : header_(header),
      clock_(header.preamble.clock),
      by_divisor_(clock_.divider()),
      zero_ns_(zero_ns),
      last_ticks_(header.preamble.clock.base),
      images_(header.mmaps),
      resolver_(header) {
    cores_.resize(header.cores.size());
    for (CoreState& cs : cores_)
        cs.named_cookies.assign(static_cast<std::size_t>(images_.cookie_end()), false);
    for (std::size_t c = 0; c < cores_.size() && c < plan.pmu_names.size(); ++c) {
        for (const auto& name : plan.pmu_names[c]) {
            // A store that holds everything since the PMU was programmed starts every counter
            // at 0.
            cores_[c].slots.push_back(Slot{0, counters.key(name).value_or(0), !evicted});
        }
    }
    for (const auto& name : plan.series_names)
        series_keys_.push_back(counters.key(name).value_or(0));
    if (!plan.activity.empty()) activity_key_ = counters.key(plan.activity);
}

void RecordMapper::prologue(model::Nanos ts, std::vector<model::Event>& out) const {
    for (std::size_t c = 0; c < header_.cores.size(); ++c) {
        const PmuSettings& s = header_.cores[c];
        if (!s.configured()) continue;
        const CpuType cpu = cpu_type_of(s.midr);
        out.emplace_back(model::CoreName{ts, static_cast<std::int32_t>(c),
                                         static_cast<std::int32_t>(cpu.cpuid), cpu.core_name});
    }
    for (const TaskInfo& t : header_.tasks)
        out.emplace_back(model::ThreadName{ts, 0, static_cast<std::int32_t>(t.task_id), t.name});
}

model::Nanos RecordMapper::timeline(std::uint64_t ticks) {
    if (ticks == UINT64_MAX) ticks = last_ticks_;
    last_ticks_ = ticks;
    const model::Nanos ns = clock_.to_ns(ticks, by_divisor_);
    // Both are in this input's domain; zero is at most the earliest record (time_origin()).
    last_ts_ = since(ns, zero_ns_);
    return last_ts_;
}

std::int32_t RecordMapper::tid_of(std::optional<std::uint32_t> task, std::uint32_t core) const {
    if (task) return static_cast<std::int32_t>(*task);
    return core < cores_.size() ? static_cast<std::int32_t>(cores_[core].task) : 0;
}

RecordMapper::CoreState* RecordMapper::core_state(std::uint32_t core) {
    return core < cores_.size() ? &cores_[core] : nullptr;
}

void RecordMapper::map(const RecordRef& record, std::uint64_t file_offset, EventOrder& order,
                       ingest::IngestReport& report, ingest::KindTally& tally) {
    std::vector<model::Event>& out = order.incoming();
    std::visit(
        [&](const auto& r) {
            using T = std::decay_t<decltype(r)>;
            bool mapped = false;
            std::string_view kind;
            if constexpr (std::is_same_v<T, const SampleRecord*>) {
                kind = kind::of_type(r->header.type);
                mapped = map_sample(*r, file_offset, order, report);
            } else {
                kind = kind::of_type(r.header.type);
                const model::Nanos ts = timeline(r.header.timestamp);
                const auto core = static_cast<std::int32_t>(r.header.core);
                if constexpr (std::is_same_v<T, TaskSwitchRecord>) {
                    if (CoreState* cs = core_state(r.header.core)) cs->task = r.task;
                    if (activity_key_) {
                        out.emplace_back(model::ActivitySwitch{ts, core, *activity_key_, 1,
                                                               static_cast<std::int32_t>(r.task),
                                                               wait_of(r.reason)});
                        mapped = true;
                    }
                } else if constexpr (std::is_same_v<T, CustomCounterRecord>) {
                    mapped = map_custom_counter(ts, r, order, report);
                } else if constexpr (std::is_same_v<T, AnnotationRecord>) {
                    mapped = map_annotation(ts, r, out);
                } else if constexpr (std::is_same_v<T, HaltRecord>) {
                    out.emplace_back(model::Idle{ts, core, r.entered ? 0 : -1});
                    mapped = true;
                } else if constexpr (std::is_same_v<T, PcSampleRecord>) {
                    mapped = map_pc(ts, r.header.core, std::nullopt, r.pc, order);
                } else if constexpr (std::is_same_v<T, WarningRecord>) {
                    mapped = false;  // no published layout to decode
                }
            }
            if (mapped)
                tally.mapped(kind);
            else
                tally.skipped(kind);
        },
        record);
}

bool RecordMapper::map(const CustomCounterRecord& record, EventOrder& out,
                       ingest::IngestReport& report) {
    return map_custom_counter(timeline(record.header.timestamp), record, out, report);
}

bool RecordMapper::map_custom_counter(model::Nanos ts, const CustomCounterRecord& r,
                                      EventOrder& out, ingest::IngestReport& report) {
    const auto series = resolver_.resolve(r.counter, r.header.core);
    if (series.ambiguous) {
        report.read(kind::kAmbiguousSeries);
        report.mapped(kind::kAmbiguousSeries);
    }
    return series.series && map_custom(ts, r.header.core, *series.series, r.value, out);
}

bool RecordMapper::map_sample(const SampleRecord& s, std::uint64_t file_offset, EventOrder& out,
                              ingest::IngestReport& report) {
    const model::Nanos ts = timeline(s.header.timestamp);
    const auto core = static_cast<std::int32_t>(s.header.core);
    bool mapped = false;
    if (CoreState* cs = core_state(s.header.core)) {
        // Room for every value at once, then written through a pointer: a push_back per value
        // stores the vector's end each time and checks its capacity.
        std::vector<model::Sample>& samples = out.incoming_samples();
        const std::size_t n = std::min(s.pmu.size(), cs->slots.size());
        const std::size_t at = samples.size();
        samples.resize(at + n);
        model::Sample* const first = samples.data() + at;
        model::Sample* w = first;
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint64_t value = s.pmu[i];
            Slot& slot = cs->slots[i];
            const std::uint64_t last = slot.last;
            const bool had = slot.has_last;
            slot.last = value;
            slot.has_last = true;
            if (!had || slot.key == 0) continue;
            // A lower read means the counter was reset: it counted `value` since then.
            const std::uint64_t delta = value >= last ? value - last : value;
            *w++ = model::Sample{ts, static_cast<std::int64_t>(delta), core, slot.key, -1, 0};
        }
        samples.resize(at + static_cast<std::size_t>(w - first));
        mapped = w != first;
    }
    if (s.pc) mapped = map_pc(ts, s.header.core, s.task, *s.pc, out) || mapped;
    for (const CustomValue& v : s.custom) {
        if (v.id >= series_keys_.size()) {
            report.bad_record(record_problem("sampled custom counter id " + std::to_string(v.id) +
                                                 " is not one of the header's " +
                                                 std::to_string(series_keys_.size()) +
                                                 " series; value skipped",
                                             file_offset, kind::kCustomCounter));
            continue;
        }
        mapped = map_custom(ts, s.header.core, v.id, v.value, out) || mapped;
    }
    return mapped;
}

bool RecordMapper::map_custom(model::Nanos ts, std::uint32_t core, std::uint32_t series,
                              std::uint64_t value, EventOrder& out) const {
    if (series >= series_keys_.size() || series_keys_[series] == 0) return false;
    out.incoming_samples().push_back(model::Sample{ts, static_cast<std::int64_t>(value),
                                                   static_cast<std::int32_t>(core),
                                                   series_keys_[series], -1, 0});
    return true;
}

bool RecordMapper::map_pc(model::Nanos ts, std::uint32_t core, std::optional<std::uint32_t> task,
                          std::uint64_t pc, EventOrder& out) {
    const std::int32_t tid = tid_of(task, core);
    const ImageMap::Hit hit = images_.find(
        pc, task ? task : std::optional<std::uint32_t>(static_cast<std::uint32_t>(tid)));
    const auto c = static_cast<std::int32_t>(core);
    if (hit.cookie >= 2) {
        // Cookies are cached per core by Streamline: name each on a core before its first use.
        CoreState* cs = core_state(core);
        const auto cookie = static_cast<std::size_t>(hit.cookie);
        if (cs == nullptr || !cs->named_cookies[cookie]) {
            if (cs != nullptr) cs->named_cookies[cookie] = true;
            // The record's samples so far, the name, then the rest: their order as single events.
            out.cut(ts);
            out.incoming().emplace_back(
                model::CookieName{ts, c, hit.cookie, images_.name(hit.cookie)});
            out.cut(ts);
        }
    }
    // The Backtrace{ts, c, cookie, tid, tid, {{cookie, offset}}} a PC sample stands for.
    out.incoming_samples().push_back(
        model::Sample{ts, hit.offset, c, model::kPcSampleKey, tid, hit.cookie});
    return true;
}

bool RecordMapper::map_annotation(model::Nanos ts, const AnnotationRecord& a,
                                  std::vector<model::Event>& out) const {
    const auto core = static_cast<std::int32_t>(a.header.core);
    const std::int32_t tid = tid_of(a.task, a.header.core);
    const auto channel = static_cast<std::int32_t>(a.channel);
    const auto group = static_cast<std::int32_t>(a.group);
    switch (a.annotation_type) {
        case 0:
            out.emplace_back(model::Annotation{
                ts, core, tid, model::StringAnnotation{channel, colour_of(a.colour), a.text}});
            return true;
        case 1:
            out.emplace_back(model::Annotation{
                ts, core, tid, model::MarkerAnnotation{colour_of(a.colour), a.text}});
            return true;
        case 2:
            out.emplace_back(
                model::Annotation{ts, core, tid, model::ChannelName{channel, group, a.text}});
            return true;
        case 3:
            out.emplace_back(model::Annotation{ts, core, tid, model::GroupName{group, a.text}});
            return true;
        default:
            return false;
    }
}

}  // namespace apcgate::collectors::barman
