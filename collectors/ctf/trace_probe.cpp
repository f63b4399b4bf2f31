#include "collectors/ctf/trace_probe.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <set>

#include "collectors/ctf/event_plan.hpp"
#include "collectors/ctf/trace_graph.hpp"

namespace apcgate::collectors::ctf {

namespace {

__extension__ using Int128 = __int128;  // offset cycles * 1e9 needs more than 64 bits

// A trace's clock name is the trace's text, of any length: kept short for the domain and
// messages, which the worker frame carries.
constexpr std::size_t kMaxClockName = 128;

std::string uuid_text(bt_uuid uuid) {
    if (uuid == nullptr) return {};
    char text[37];
    std::snprintf(text, sizeof text,
                  "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", uuid[0],
                  uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7], uuid[8], uuid[9],
                  uuid[10], uuid[11], uuid[12], uuid[13], uuid[14], uuid[15]);
    return text;
}

ClockClassInfo clock_class_info(const bt_clock_class* cc) {
    ClockClassInfo c;
    if (const char* name = bt_clock_class_get_name(cc); name != nullptr)
        c.name.assign(name, std::min(std::char_traits<char>::length(name), kMaxClockName));
    c.uuid = uuid_text(bt_clock_class_get_uuid(cc));
    c.unix_epoch = bt_clock_class_origin_is_unix_epoch(cc) != 0;
    c.frequency = bt_clock_class_get_frequency(cc);
    bt_clock_class_get_offset(cc, &c.offset_s, &c.offset_cycles);
    return c;
}

bool same_identity(const ClockClassInfo& a, const ClockClassInfo& b) {
    return a.name == b.name && a.uuid == b.uuid;
}

std::string quoted_name(const ClockClassInfo& c) {
    return c.name.empty() ? std::string("(unnamed)") : "'" + c.name + "'";
}

class ProbeHandler final : public MessageHandler {
  public:
    explicit ProbeHandler(ProbeResult& r) : r_(r) {}

    void on_messages(const bt_message* const* messages, std::uint64_t count) override {
        for (std::uint64_t i = 0; i < count; ++i) message(messages[i]);
    }
    [[nodiscard]] bool done(std::size_t trace_count) const {
        // Every trace's classes, and the first packet (its cpu_id) of every stream.
        return (traces_.size() >= trace_count && streams_.size() == packed_.size()) ||
               seen_ >= kProbeMessageLimit;
    }
    int max_cpu = -1;
    // The default clock classes of the streams met, in that order, each once.
    std::vector<ClockClassInfo> clocks;
    bool unclocked = false;  // a stream without one

  private:
    void message(const bt_message* m) {
        ++seen_;
        r_.held.hold(m);
        const bt_message_type type = bt_message_get_type(m);
        if (type == BT_MESSAGE_TYPE_STREAM_BEGINNING) {
            const bt_stream* stream = bt_message_stream_beginning_borrow_stream_const(m);
            streams_.insert(stream);
            const bt_stream_class* stream_class = bt_stream_borrow_class_const(stream);
            if (!bt_stream_class_supports_packets(stream_class)) packed_.insert(stream);
            learn_clock(stream_class);
            const bt_trace* trace = bt_stream_borrow_trace_const(stream);
            if (traces_.insert(trace).second) learn(trace);
            return;
        }
        if (type == BT_MESSAGE_TYPE_STREAM_END) {
            packed_.insert(bt_message_stream_end_borrow_stream_const(m));  // no more packets
            return;
        }
        if (type != BT_MESSAGE_TYPE_PACKET_BEGINNING) return;
        const bt_packet* packet = bt_message_packet_beginning_borrow_packet_const(m);
        packed_.insert(bt_packet_borrow_stream_const(packet));
        const StreamPlan plan =
            plan_stream(bt_stream_borrow_class_const(bt_packet_borrow_stream_const(packet)));
        const std::int64_t cpu =
            read_int(bt_packet_borrow_context_field_const(packet), plan.cpu_id);
        if (plan.cpu_id.found() && cpu >= 0 && cpu < 4096)
            max_cpu = std::max(max_cpu, static_cast<int>(cpu));
    }

    void learn(const bt_trace* trace) {
        scan_trace_class(bt_trace_borrow_class_const(trace), r_.needs);
        if (!r_.hostname.empty()) return;
        const bt_value* host =
            bt_trace_borrow_environment_entry_value_by_name_const(trace, "hostname");
        if (host != nullptr && bt_value_is_string(host)) r_.hostname = bt_value_string_get(host);
    }

    void learn_clock(const bt_stream_class* stream_class) {
        const bt_clock_class* cc = bt_stream_class_borrow_default_clock_class_const(stream_class);
        if (cc == nullptr) {
            unclocked = true;
        } else if (clock_classes_.insert(cc).second) {
            clocks.push_back(clock_class_info(cc));
        }
    }

    ProbeResult& r_;
    std::set<const bt_clock_class*> clock_classes_;
    std::set<const bt_trace*> traces_;
    std::set<const bt_stream*> streams_;
    std::set<const bt_stream*> packed_;  // streams whose first packet (or end) was seen
    std::uint64_t seen_ = 0;
};

}  // namespace

std::optional<std::int64_t> clock_offset_ns(const ClockClassInfo& c) {
    if (c.frequency == 0) return std::nullopt;
    // Cycles may be any u64 (libbabeltrace2's CTF reader keeps them below the frequency, other
    // sources need not): at most 2^64 * 1e9 < 2^94, in 128 bits.
    const Int128 ns = static_cast<Int128>(c.offset_s) * 1'000'000'000 +
                      static_cast<Int128>(c.offset_cycles) * 1'000'000'000 / c.frequency;
    if (ns < std::numeric_limits<std::int64_t>::min() ||
        ns > std::numeric_limits<std::int64_t>::max())
        return std::nullopt;
    return static_cast<std::int64_t>(ns);
}

// The rules, for an input of one or more traces (every clock class met, of all its traces):
// - domain: "unix-epoch" when every clock's origin is the Unix epoch (LTTng's, as
//   libbabeltrace2 reads them: traces of different sessions and machines correlate on it);
//   else "ctf:NAME[/UUID]" when every clock is one clock by name and UUID (libbabeltrace2
//   correlates clock classes of one UUID, or of none, and so does the merge within the input);
//   else, or with a stream that has no clock, or a clock of neither name nor UUID, "" (a domain
//   of this input alone).
// - to_monotonic: when every clock is LTTng's ("monotonic"), minus the first one's offset. Each
//   LTTng session (and each domain of one) measures realtime - monotonic on its own when it
//   starts, so traces of one session agree within microseconds and those of sessions started
//   apart differ by how far realtime was stepped or slewed in between. The input's traces are
//   merged on their realtime-based ns as libbabeltrace2 merges them, so one offset has to place
//   the whole input: the first clock met's is exact for its trace and off by the spread for the
//   others, which is still far better than no relation at all (the input would be placed at
//   the capture's start); a spread over kOffsetAgreementNs is said in the description.
ingest::InputClock decide_clock(const std::vector<ClockClassInfo>& clocks, bool unclocked_streams) {
    ingest::InputClock r;
    if (unclocked_streams) {
        r.description = "CTF stream without a clock (its events have no time)";
        return r;
    }
    if (clocks.empty()) {
        r.description = "CTF clock (no stream read)";
        return r;
    }
    const ClockClassInfo& first = clocks.front();
    const auto all = [&](auto pred) { return std::all_of(clocks.begin(), clocks.end(), pred); };
    if (all([](const ClockClassInfo& c) { return c.unix_epoch; })) {
        r.domain = "unix-epoch";
    } else if ((!first.name.empty() || !first.uuid.empty()) && all([&](const ClockClassInfo& c) {
                   return !c.unix_epoch && same_identity(c, first);
               })) {
        r.domain = "ctf:" + first.name + (first.uuid.empty() ? "" : "/" + first.uuid);
    }
    std::size_t others = 0;
    for (std::size_t i = 1; i < clocks.size(); ++i) {
        const bool seen =
            std::any_of(clocks.begin(), clocks.begin() + static_cast<std::ptrdiff_t>(i),
                        [&](const ClockClassInfo& c) { return c.name == clocks[i].name; });
        others += seen ? 0 : 1;
    }
    r.description = "CTF clock " + quoted_name(first);
    if (others > 0) r.description += " and " + std::to_string(others) + " other clock names";

    if (!all([](const ClockClassInfo& c) { return c.name == kLttngClockName; })) {
        if (r.domain == "unix-epoch") r.description += " (Unix epoch)";
        return r;
    }
    const auto offset = clock_offset_ns(first);
    if (!offset || *offset == std::numeric_limits<std::int64_t>::min()) {
        r.description += " (LTTng; its offset is out of range)";
        return r;
    }
    r.to_monotonic = -*offset;
    r.description += " (LTTng, CLOCK_MONOTONIC)";
    std::int64_t spread = 0;
    for (const auto& c : clocks) {
        const auto o = clock_offset_ns(c);
        const Int128 d = o ? static_cast<Int128>(*o) - *offset : 0;
        const Int128 distance = d < 0 ? -d : d;
        spread = std::max(spread, static_cast<std::int64_t>(std::min<Int128>(
                                      distance, std::numeric_limits<std::int64_t>::max())));
    }
    if (spread > kOffsetAgreementNs)
        r.description += "; its traces' realtime offsets differ by up to " +
                         std::to_string(spread / 1'000'000) + " ms, the first trace's is used";
    return r;
}

HeldMessages& HeldMessages::operator=(HeldMessages&& other) noexcept {
    if (this != &other) {
        release();
        messages_ = std::move(other.messages_);
        other.messages_.clear();
    }
    return *this;
}

void HeldMessages::hold(const bt_message* m) {
    bt_message_get_ref(m);
    messages_.push_back(m);
}

void HeldMessages::release() {
    for (const bt_message* m : messages_) bt_message_put_ref(m);
    messages_.clear();
}

Result<ProbeResult> probe_traces(const std::vector<std::filesystem::path>& traces) {
    ProbeResult r;
    ProbeHandler handler(r);
    auto graph = TraceGraph::open(traces, handler, r.rejected);
    if (!graph) return std::move(graph).take_error();
    r.traces = (*graph)->traces();
    // What the repair of damaged stream files did not read: reported once, with the traces that
    // could not be opened (the decoding worker repairs them again, the same way).
    for (const auto& lost : (*graph)->losses()) r.rejected.push_back(lost);
    // A failure here is met again, and reported, when the capture reads the trace.
    while (!handler.done((*graph)->trace_count()) &&
           (*graph)->step() == TraceGraph::Step::Messages) {
    }
    bt_current_thread_clear_error();
    for (const auto& t : r.traces) {
        const auto range = query_time_range((*graph)->ctf_plugin(), (*graph)->read_dir(t));
        if (!range) continue;
        if (!r.range) r.range = range;
        r.range->begin = std::min(r.range->begin, range->begin);
        r.range->end = std::max(r.range->end, range->end);
    }
    r.cores = std::max(
        {1, handler.max_cpu + 1,
         static_cast<int>(std::min<std::uint64_t>((*graph)->max_streams_per_trace(), 4096))});
    r.needs.cores = r.cores;
    r.clock = decide_clock(handler.clocks, handler.unclocked);
    // The handler is this function's: the source sets its own before it steps the graph again.
    r.graph = std::move(*graph);
    return r;
}

}  // namespace apcgate::collectors::ctf
