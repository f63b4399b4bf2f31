#include "collectors/ctf/trace_probe.hpp"

#include <algorithm>
#include <set>

#include "collectors/ctf/event_plan.hpp"
#include "collectors/ctf/trace_graph.hpp"

namespace apcgate::collectors::ctf {

namespace {

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

  private:
    void message(const bt_message* m) {
        ++seen_;
        r_.held.hold(m);
        const bt_message_type type = bt_message_get_type(m);
        if (type == BT_MESSAGE_TYPE_STREAM_BEGINNING) {
            const bt_stream* stream = bt_message_stream_beginning_borrow_stream_const(m);
            streams_.insert(stream);
            if (!bt_stream_class_supports_packets(bt_stream_borrow_class_const(stream)))
                packed_.insert(stream);
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

    ProbeResult& r_;
    std::set<const bt_trace*> traces_;
    std::set<const bt_stream*> streams_;
    std::set<const bt_stream*> packed_;  // streams whose first packet (or end) was seen
    std::uint64_t seen_ = 0;
};

}  // namespace

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

void HeldMessages::replay(MessageHandler& handler) {
    if (!messages_.empty()) handler.on_messages(messages_.data(), messages_.size());
    release();
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
    // A failure here is met again, and reported, when the capture reads the trace.
    while (!handler.done(r.traces.size()) && (*graph)->step() == TraceGraph::Step::Messages) {
    }
    bt_current_thread_clear_error();
    for (const auto& t : r.traces) {
        const auto range = query_time_range((*graph)->ctf_plugin(), t);
        if (!range) continue;
        if (!r.range) r.range = range;
        r.range->begin = std::min(r.range->begin, range->begin);
        r.range->end = std::max(r.range->end, range->end);
    }
    r.cores = std::max(
        {1, handler.max_cpu + 1,
         static_cast<int>(std::min<std::uint64_t>((*graph)->max_streams_per_trace(), 4096))});
    r.needs.cores = r.cores;
    // The handler is this function's: the source sets its own before it steps the graph again.
    r.graph = std::move(*graph);
    return r;
}

}  // namespace apcgate::collectors::ctf
