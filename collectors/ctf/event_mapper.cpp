#include "collectors/ctf/event_mapper.hpp"

#include <algorithm>

#include "collectors/ctf/field_text.hpp"

namespace apcgate::collectors::ctf {

namespace {
constexpr model::Nanos kNoClockStep = 1000;
}  // namespace

EventMapper::EventMapper(const model::CaptureCounters& counters, model::Nanos zero,
                         ingest::IngestReport& report)
    : keys_(counter_keys(counters)),
      zero_(zero),
      report_(report),
      kernel_(threads_, keys_),
      counters_(counters) {}

void EventMapper::start_counters(model::Nanos ts) {
    last_ = std::max(last_, ts);
    for (const auto& key : {keys_.discarded_events, keys_.discarded_packets})
        if (key) out_->push_back(model::CounterSample{last_, 0, *key, 0, -1});
}

void EventMapper::on_messages(const bt_message* const* messages, std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i) message(messages[i]);
}

void EventMapper::message(const bt_message* m) {
    switch (bt_message_get_type(m)) {
        case BT_MESSAGE_TYPE_EVENT:
            event(m);
            break;
        case BT_MESSAGE_TYPE_PACKET_BEGINNING:
            packet_beginning(m);
            break;
        case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
            discarded(m, false);
            break;
        case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
            discarded(m, true);
            break;
        case BT_MESSAGE_TYPE_STREAM_BEGINNING:
            stream_state(bt_message_stream_beginning_borrow_stream_const(m));
            break;
        case BT_MESSAGE_TYPE_STREAM_END: {
            // A later stream may be allocated at the same address: forget this one.
            const bt_stream* stream = bt_message_stream_end_borrow_stream_const(m);
            streams_.erase(stream);
            if (last_stream_ == stream) last_stream_ = nullptr, last_state_ = nullptr;
            break;
        }
        default:
            break;  // packet end, iterator inactivity: nothing to show
    }
}

EventMapper::StreamState& EventMapper::stream_state(const bt_stream* stream) {
    if (stream == last_stream_) return *last_state_;
    auto it = streams_.find(stream);
    if (it == streams_.end()) {
        StreamState s;
        const bt_stream_class* sc = bt_stream_borrow_class_const(stream);
        auto& info = stream_classes_[sc];
        if (!info) {
            info = std::make_unique<StreamClassInfo>();
            info->plan = plan_stream(sc);
            for (const auto& p : info->plan.perf)
                info->perf_keys.push_back(counters_.key(p.counter));
        }
        s.info = info.get();
        s.serial = next_serial_++;
        s.has_clock = bt_stream_class_borrow_default_clock_class_const(sc) != nullptr;
        const bt_trace* trace = bt_stream_borrow_trace_const(stream);
        const bt_value* vpid = bt_trace_borrow_environment_entry_value_by_name_const(trace, "vpid");
        const bt_value* procname =
            bt_trace_borrow_environment_entry_value_by_name_const(trace, "procname");
        if (vpid != nullptr && bt_value_is_signed_integer(vpid) && procname != nullptr &&
            bt_value_is_string(procname)) {
            s.env_vpid = bt_value_integer_signed_get(vpid);
            s.env_procname = bt_value_string_get(procname);
        }
        const char* trace_name = bt_trace_get_name(trace);
        const char* stream_name = bt_stream_get_name(stream);
        s.name = trace_name != nullptr ? std::string(trace_name) + " " : std::string();
        if (stream_name == nullptr)
            s.name += "stream " + std::to_string(bt_stream_get_id(stream));
        else
            s.name += path_shown_ ? path_shown_(stream_name) : std::string(stream_name);
        it = streams_.emplace(stream, std::move(s)).first;
    }
    last_stream_ = stream;
    last_state_ = &it->second;
    return it->second;
}

std::uint32_t EventMapper::plan_index(const bt_event_class* cls) {
    for (std::size_t i = 0; i < kRecentClasses; ++i)
        if (recent_class_[i] == cls) return recent_index_[i];
    auto it = plan_index_.find(cls);
    if (it == plan_index_.end()) {
        plans_.push_back(plan_event(cls));
        it = plan_index_.emplace(cls, static_cast<std::uint32_t>(plans_.size() - 1)).first;
    }
    recent_class_[recent_next_] = cls;
    recent_index_[recent_next_] = it->second;
    recent_next_ = (recent_next_ + 1) % kRecentClasses;
    return it->second;
}

model::Nanos EventMapper::timestamp(const bt_clock_snapshot* snapshot) {
    std::int64_t ns = 0;
    model::Nanos t = 0;
    if (snapshot == nullptr ||
        bt_clock_snapshot_get_ns_from_origin(snapshot, &ns) !=
            BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK ||
        __builtin_sub_overflow(ns, zero_, &t)) {
        // Cycles too large for ns from origin: keep the event at the latest time.
        bt_current_thread_clear_error();
        return last_;
    }
    last_clock_ = ns;
    if (t > last_) last_ = t;
    return last_;
}

model::Nanos EventMapper::no_clock_timestamp() {
    last_ += kNoClockStep;
    return last_;
}

void EventMapper::packet_beginning(const bt_message* m) {
    const bt_packet* packet = bt_message_packet_beginning_borrow_packet_const(m);
    StreamState& s = stream_state(bt_packet_borrow_stream_const(packet));
    ++packets_;
    if (s.info->plan.cpu_id.found()) {
        const std::int64_t cpu =
            read_int(bt_packet_borrow_context_field_const(packet), s.info->plan.cpu_id);
        if (cpu >= 0 && static_cast<std::uint64_t>(cpu) <= kMaxCore) {
            s.core = static_cast<std::int32_t>(cpu);
        } else {
            Error e =
                Error::at(ErrorKind::Malformed, "cpu_id " + std::to_string(cpu) +
                                                    " is out of range; events counted on core 0");
            e.record = "CTF packet context";
            e.field = "cpu_id";
            report_.bad_record(std::move(e));
            s.core = 0;
        }
    }
    if (s.has_clock && bt_stream_class_packets_have_beginning_default_clock_snapshot(
                           bt_stream_borrow_class_const(bt_packet_borrow_stream_const(packet))))
        timestamp(bt_message_packet_beginning_borrow_default_clock_snapshot_const(m));
}

void EventMapper::discarded(const bt_message* m, bool packets) {
    const bt_stream* stream = packets ? bt_message_discarded_packets_borrow_stream_const(m)
                                      : bt_message_discarded_events_borrow_stream_const(m);
    StreamState& s = stream_state(stream);
    const bt_stream_class* sc = bt_stream_borrow_class_const(stream);
    std::uint64_t count = 0;
    const bool known = (packets ? bt_message_discarded_packets_get_count(m, &count)
                                : bt_message_discarded_events_get_count(m, &count)) ==
                       BT_PROPERTY_AVAILABILITY_AVAILABLE;
    if (!known) count = 1;  // at least one was lost
    const bool timed = packets ? bt_stream_class_discarded_packets_have_default_clock_snapshots(sc)
                               : bt_stream_class_discarded_events_have_default_clock_snapshots(sc);
    // The merge orders these messages by the start of the lost range (stream_merge.hpp): place
    // them there too.
    const model::Nanos ts =
        timed
            ? timestamp(
                  packets
                      ? bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const(
                            m)
                      : bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(
                            m))
            : last_;
    const std::string_view what = packets ? kind::kDiscardedPackets : kind::kDiscardedEvents;
    report_.read(what, count);
    report_.mapped(what, count);
    const auto& key = packets ? keys_.discarded_packets : keys_.discarded_events;
    if (key)
        out_->push_back(
            model::CounterSample{ts, s.core, *key, static_cast<std::int64_t>(count), -1});
    std::string text = "CTF: the tracer discarded " +
                       (known ? std::to_string(count) : std::string("some")) +
                       (packets ? " packets" : " events") + " in ";
    append_utf8(text, s.name, false, 256);
    out_->push_back(
        model::Annotation{ts, s.core, 0, model::MarkerAnnotation{std::nullopt, std::move(text)}});
}

void EventMapper::event(const bt_message* m) {
    const bt_event* ev = bt_message_event_borrow_event_const(m);
    StreamState& s = stream_state(bt_event_borrow_stream_const(ev));
    const model::Nanos ts = s.has_clock
                                ? timestamp(bt_message_event_borrow_default_clock_snapshot_const(m))
                                : no_clock_timestamp();
    const std::uint32_t index = plan_index(bt_event_borrow_class_const(ev));
    EventPlan& plan = plans_[index];
    ++plan.read;
    ++plan.mapped;
    ++events_;
    const StreamPlan& sp = s.info->plan;
    const bt_field* ctx = bt_event_borrow_common_context_field_const(ev);
    if (!sp.perf.empty()) {
        const std::int32_t tid =
            static_cast<std::int32_t>(read_int(ctx, sp.vtid.found() ? sp.vtid : sp.tid));
        perf(s, ctx, ts, tid);
    }
    if (plan.kind == EventKind::Generic || plan.kind == EventKind::Tracef ||
        plan.kind == EventKind::Tracelog ||
        !kernel_.map(plan, bt_event_borrow_payload_field_const(ev), ts, s.core, *out_))
        annotate(plan, index, ev, s, ts);
}

void EventMapper::perf(const StreamState& s, const bt_field* ctx, model::Nanos ts,
                       std::int32_t tid) {
    const auto& perf = s.info->plan.perf;
    for (std::size_t i = 0; i < perf.size(); ++i) {
        const auto& key = s.info->perf_keys[i];
        if (!key) continue;
        const std::int64_t value = read_int(ctx, perf[i].member);
        // A per-thread counter counts for its thread, a per-CPU one for its core.
        const std::uint32_t who = perf[i].per_thread ? static_cast<std::uint32_t>(tid)
                                                     : static_cast<std::uint32_t>(s.core);
        const std::uint64_t series =
            (static_cast<std::uint64_t>(static_cast<std::uint32_t>(*key)) << 32) | who;
        auto it = perf_last_.find(series);
        if (it == perf_last_.end()) {
            if (perf_last_.size() < kMaxPerfSeries) perf_last_.emplace(series, value);
            continue;  // the first reading is the baseline
        }
        const std::int64_t delta = value - it->second;
        it->second = value;
        if (delta > 0) out_->push_back(model::CounterSample{ts, s.core, *key, delta, -1});
    }
}

void EventMapper::annotate(EventPlan& plan, std::uint32_t index, const bt_event* ev, StreamState& s,
                           model::Nanos ts) {
    const StreamPlan& sp = s.info->plan;
    const bt_field* ctx = bt_event_borrow_common_context_field_const(ev);
    const bt_field* payload = bt_event_borrow_payload_field_const(ev);
    const MemberRef tid_ref = sp.vtid.found() ? sp.vtid : sp.tid;
    const MemberRef pid_ref = sp.vpid.found() ? sp.vpid : sp.pid;
    const auto tid = static_cast<std::int32_t>(read_int(ctx, tid_ref));
    const auto pid = pid_ref.found() ? static_cast<std::int32_t>(read_int(ctx, pid_ref)) : -1;
    // Names and groups change only when another thread writes to this stream.
    if (s.last_group < 0 || tid != s.last_tid || pid != s.last_pid) {
        if (pid_ref.found()) {
            std::string_view procname = read_string(ctx, sp.procname);
            if (procname.empty() && pid == s.env_vpid) procname = s.env_procname;
            if (tid_ref.found()) threads_.learn(ts, s.core, tid, pid, procname, {}, *out_);
            s.last_group = channels_.process_group(ts, tid, pid, procname, *out_);
        } else {
            s.last_group = channels_.stream_group(ts, s.serial, s.name, *out_);
        }
        s.last_tid = tid;
        s.last_pid = pid;
    }
    if (plan.last_group != s.last_group) {
        plan.last_channel = channels_.channel(ts, tid, s.last_group, index, plan.name, *out_);
        plan.last_group = s.last_group;
    }
    const std::int32_t channel = plan.last_channel;

    // The text goes to the chunk's text buffer when there is one (deferred_texts.hpp), else to
    // the event itself.
    const std::size_t event = out_->size();
    std::string& text = texts_ != nullptr ? texts_->begin(event) : text_;
    if (texts_ == nullptr) text.clear();
    const std::size_t base = text.size();
    write_text(text, base + kMaxAnnotationText, plan, payload);
    if (text.size() == base) text += plan.name;  // an empty text would end the span instead
    if (texts_ != nullptr) {
        texts_->end();
        // Built in its place: an Annotation made aside and moved in costs a variant move each.
        auto& a =
            std::get<model::Annotation>(out_->emplace_back(std::in_place_type<model::Annotation>));
        a.ts = ts;
        a.core = s.core;
        a.tid = tid;
        a.body.emplace<model::StringAnnotation>().channel = channel;
    } else {
        out_->push_back(model::Annotation{ts, s.core, tid,
                                          model::StringAnnotation{channel, std::nullopt, text}});
    }
    channels_.opened(channel, tid, s.core);
}

void EventMapper::write_text(std::string& text, std::size_t limit, const EventPlan& plan,
                             const bt_field* payload) {
    const auto& f = plan.fields;
    if (plan.kind == EventKind::Tracef || plan.kind == EventKind::Tracelog) {
        append_utf8(text, read_string(payload, f[role::kMsg]), false, limit);
        if (plan.kind == EventKind::Tracelog && f[role::kFile].found()) {
            text += " (";
            append_utf8(text, read_string(payload, f[role::kFunc]), false, limit);
            text += " at ";
            append_utf8(text, read_string(payload, f[role::kFile]), false, limit);
            text += ":" + std::to_string(read_int(payload, f[role::kLine])) + ")";
        }
        return;
    }
    text += plan.text_prefix;
    if (payload != nullptr && !plan.text.empty()) append_planned(text, payload, plan.text, limit);
}

void EventMapper::finish() {
    channels_.close_all(last_, *out_);
}

void EventMapper::flush_counts() {
    for (auto& p : plans_) {
        if (p.read > 0) report_.read(p.name, p.read);
        if (p.mapped > 0) report_.mapped(p.name, p.mapped);
        p.read = p.mapped = 0;
    }
    if (packets_ > 0) report_.read(kind::kPackets, packets_);
    packets_ = 0;
}

}  // namespace apcgate::collectors::ctf
