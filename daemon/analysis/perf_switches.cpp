#include "daemon/analysis/perf_switches.hpp"

#include <linux/perf_event.h>

#include "collectors/perf/tracepoint_format.hpp"

namespace apcgate::daemon::analysis {

namespace cp = collectors::perf;

PerfSwitches::PerfSwitches(TimelineAccounting& timeline)
    : timeline_(timeline), order_([this](const TimelineChange& c) { apply(c); }) {}

void PerfSwitches::attr(const perf_framing::PerfAttr& a) {
    has_source_.reset();
    if (a.type == PERF_TYPE_TRACEPOINT) tracepoint_configs_.insert(a.config);
    if (a.flag(perf_framing::PerfAttr::kContextSwitchBit)) context_switch_attr_ = true;
}

void PerfSwitches::format(std::string_view text) {
    has_source_.reset();
    auto f = cp::parse_tracepoint_format(text, "FORMAT message");
    if (!f || !f->id) {
        ++bad_formats_;
        return;
    }
    if (f->name != "sched_switch") return;
    auto layout = cp::SchedSwitchLayout::from(*f);
    if (!layout) {
        ++bad_formats_;
        return;
    }
    layouts_.insert_or_assign(*f->id, *layout);
}

bool PerfSwitches::has_switch_source() const {
    if (!has_source_) {
        has_source_ = context_switch_attr_;
        for (const auto& [id, layout] : layouts_)
            if (tracepoint_configs_.contains(id)) has_source_ = true;
    }
    return *has_source_;
}

void PerfSwitches::apply(const TimelineChange& c) {
    if (c.kind == TimelineChange::Kind::Exit) {
        // The exiting task leaves its CPU here, whether or not a last switch is reported.
        if (auto it = running_.find(c.cpu); it != running_.end() && it->second == c.tid) {
            timeline_.switch_to(c.ts, -1, c.cpu, 0, model::WaitState::Other);
            it->second = 0;
        }
        timeline_.thread_exit(c.ts, c.tid);
        return;
    }
    timeline_.switch_to(c.ts, -1, c.cpu, c.tid, c.wait);
    running_[c.cpu] = c.tid;
}

void PerfSwitches::change(std::int64_t ts, std::int32_t cpu, std::int32_t tid,
                          model::WaitState wait, TimelineChange::Kind kind) {
    if (kind == TimelineChange::Kind::Switch) {
        ++switches_;
        cpus_known_.insert(cpu);
    }
    order_.add({ts, cpu, tid, wait, kind});
}

void PerfSwitches::sched_switch_sample(const perf_framing::RecordView& v, std::int64_t ts) {
    const auto it = layouts_.find(v.attr->config);
    if (it == layouts_.end()) {
        ++without_format_;
        return;
    }
    auto f = it->second.decode(v.record->raw, v.offset, "sched:sched_switch sample");
    if (!f) {
        ++undecodable_;
        return;
    }
    cp::SwitchSeen seen;
    seen.report = cp::SwitchReport::Tracepoint;
    seen.time = static_cast<std::uint64_t>(ts);
    seen.cpu = v.cpu;
    seen.prev_tid = f->prev_tid;
    seen.next_tid = f->next_tid;
    seen.next_comm = std::move(f->next_comm);
    seen.wait = it->second.wait_state(f->prev_state);
    if (auto sw = reconciled_.add(std::move(seen))) {
        ++from_tracepoint_;
        change(ts, v.cpu, sw->next_tid, sw->wait);
    }
}

void PerfSwitches::switch_record(const perf_framing::PerfRecord& r, std::int32_t cpu,
                                 std::int64_t ts) {
    const bool out = (r.header.misc & PERF_RECORD_MISC_SWITCH_OUT) != 0;
    // Runnable as it left (preempted, or yielded): waiting for the CPU.
    const model::WaitState wait = (r.header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0
                                      ? model::WaitState::Contention
                                      : model::WaitState::Other;
    const auto tid = r.tid ? static_cast<std::int32_t>(*r.tid) : -1;
    if (r.header.type == PERF_RECORD_SWITCH) {
        change(ts, cpu, out ? -1 : tid, out ? wait : model::WaitState::Other);
        return;
    }
    cp::SwitchSeen seen;
    seen.time = static_cast<std::uint64_t>(ts);
    seen.cpu = cpu;
    if (out) {  // the task in sample_id leaves for next_prev
        seen.report = cp::SwitchReport::SwitchOut;
        seen.prev_tid = tid;
        seen.next_tid = static_cast<std::int32_t>(r.body_tid);
        seen.next_pid = static_cast<std::int32_t>(r.body_pid);
        seen.wait = wait;
    } else {  // the task in sample_id starts running after next_prev
        seen.report = cp::SwitchReport::SwitchIn;
        seen.prev_tid = static_cast<std::int32_t>(r.body_tid);
        seen.next_tid = tid;
        seen.next_pid = r.pid ? static_cast<std::int32_t>(*r.pid) : -1;
    }
    if (auto sw = reconciled_.add(std::move(seen))) change(ts, cpu, sw->next_tid, sw->wait);
}

void PerfSwitches::record(const perf_framing::RecordView& v) {
    const perf_framing::PerfRecord& r = *v.record;
    if (!r.time) return;
    const auto ts = static_cast<std::int64_t>(*r.time);
    const std::int32_t cpu = v.cpu;
    order_.reached(cpu, ts);
    // Any record's sample_id names the task current on its CPU as it was written: on a CPU with
    // no switch yet, that task has been running since at least then.
    if (r.tid && !cpus_known_.contains(cpu) && has_switch_source()) {
        cpus_known_.insert(cpu);
        order_.add({ts, cpu, static_cast<std::int32_t>(*r.tid), model::WaitState::Other,
                    TimelineChange::Kind::Switch});
    }
    switch (r.header.type) {
        case PERF_RECORD_SAMPLE:
            if (v.attr != nullptr && v.attr->type == PERF_TYPE_TRACEPOINT &&
                tracepoint_configs_.contains(v.attr->config) &&
                (layouts_.contains(v.attr->config) || layouts_.empty()))
                sched_switch_sample(v, ts);
            break;
        case PERF_RECORD_SWITCH:
        case PERF_RECORD_SWITCH_CPU_WIDE:
            switch_record(r, cpu, ts);
            break;
        case PERF_RECORD_EXIT:
            if (has_switch_source())
                change(ts, cpu, static_cast<std::int32_t>(r.body_tid), model::WaitState::Other,
                       TimelineChange::Kind::Exit);
            break;
        default:
            break;
    }
}

void PerfSwitches::cpu_online(std::int32_t cpu, bool online) {
    if (online) {
        order_.expect(cpu);
    } else {
        order_.forget(cpu);
    }
}

void PerfSwitches::finish() {
    order_.flush();
}

void PerfSwitches::fill(Report& r) const {
    r.losses.add(AnalysisStat::SwitchSamplesUndecodable, undecodable_);
    r.losses.add(AnalysisStat::SwitchSamplesWithoutFormat, without_format_);
    r.losses.add(AnalysisStat::FormatsUnreadable, bad_formats_);
    if (switches_ > 0 && from_tracepoint_ == 0)
        r.notes.emplace_back(
            "the switches come from the kernel's switch records, whose preempt flag tells "
            "contention from other waits: io waits (uninterruptible sleep) are counted as other "
            "(sched:sched_switch, recorded system-wide, tells them apart)");
    if (order_.late() > 0)
        r.notes.push_back(std::to_string(order_.late()) +
                          " switches arrived after later ones on other CPUs had been counted (a "
                          "CPU's records came very late): their threads' wait times may be off");
}

}  // namespace apcgate::daemon::analysis
