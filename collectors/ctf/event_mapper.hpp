// Turns the libbabeltrace2 messages of CTF traces into model events, one message at a time and
// in the order the graph delivers them (already sorted by time):
//   STREAM_BEGINNING/END    stream bookkeeping (its core, group, plan)
//   PACKET_BEGINNING        the stream's core from the packet context's cpu_id
//   EVENT                   a dedicated mapping (kernel_mapper.hpp, tracef/tracelog) or one
//                           string annotation "NAME field=value, ..." on the channel of its
//                           event name in its process's (or stream's) group; perf contexts
//                           become counter deltas
//   DISCARDED_EVENTS/PACKETS  a counter sample of how many were lost and a marker saying so
// Timestamps: each clock snapshot's ns from its clock's origin (libbabeltrace2 applies the
// clock's frequency and offset, CTF 1.8 section 8) minus the capture's zero; never decreasing.
// A stream without a clock gets 1 us steps, so its events stay in order. An annotation lasts
// until the next event on its channel; finish() ends the last ones.
#pragma once

#include <babeltrace2/babeltrace.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "collectors/ctf/annotation_channels.hpp"
#include "collectors/ctf/ctf_counters.hpp"
#include "collectors/ctf/deferred_texts.hpp"
#include "collectors/ctf/event_plan.hpp"
#include "collectors/ctf/kernel_mapper.hpp"
#include "collectors/ctf/thread_table.hpp"
#include "collectors/ctf/trace_graph.hpp"
#include "collectors/ingest/ingest_report.hpp"

namespace apcgate::collectors::ctf {

inline constexpr std::size_t kMaxCore = 4095;
inline constexpr std::size_t kMaxPerfSeries = 1 << 20;

// Record kinds of the report besides event names.
namespace kind {
inline constexpr std::string_view kDiscardedEvents = "(discarded events)";
inline constexpr std::string_view kDiscardedPackets = "(discarded packets)";
inline constexpr std::string_view kPackets = "(packets)";
}  // namespace kind

class EventMapper final : public MessageHandler {
  public:
    EventMapper(const model::CaptureCounters& counters, model::Nanos zero,
                ingest::IngestReport& report);

    // Where the next messages' events go, and their annotation texts when `texts` is given
    // (the events then hold empty texts until texts->apply()).
    void set_output(std::vector<model::Event>* out, DeferredTexts* texts = nullptr) {
        out_ = out;
        texts_ = texts;
    }
    // How a stream's file path is shown in the names the capture gives its streams (a damaged
    // trace is read from a repaired view in a scratch directory; the user knows the original).
    void set_path_shown(std::function<std::string(std::string_view)> shown) {
        path_shown_ = std::move(shown);
    }
    void on_messages(const bt_message* const* messages, std::uint64_t count) override;
    // Zero samples of the discarded events and packets counters at `ts`: a capture needs at
    // least one counter message to be valid (seed, "APC Frame Format"), and a zero says that
    // nothing was lost until the first loss.
    void start_counters(model::Nanos ts);
    // Adds the per-event-name counts gathered since the last call to the report.
    void flush_counts();
    // The trace ended (or the capture stops): ends the annotations still open.
    void finish();

    // The latest timestamp handed out (capture timeline), and in the trace's own clock.
    [[nodiscard]] model::Nanos last_ts() const { return last_; }
    [[nodiscard]] std::int64_t last_clock_ns() const { return last_clock_; }
    [[nodiscard]] std::uint64_t events() const { return events_; }

  private:
    // A stream class's plan with the capture keys of its perf contexts (nullopt: disabled).
    struct StreamClassInfo {
        StreamPlan plan;
        std::vector<std::optional<model::CounterKey>> perf_keys;
    };
    struct StreamState {
        const StreamClassInfo* info = nullptr;
        std::uint64_t serial = 0;
        std::int32_t core = 0;
        bool has_clock = false;
        std::string name;
        // LTTng-UST per-process traces name their process in the environment (vpid, procname).
        std::int64_t env_vpid = -1;
        std::string env_procname;
        // The thread and group of this stream's last annotated event (saves lookups).
        std::int32_t last_tid = -1;
        std::int32_t last_pid = -1;
        std::int32_t last_group = -1;
    };

    void message(const bt_message* m);
    void event(const bt_message* m);
    void annotate(EventPlan& plan, std::uint32_t index, const bt_event* ev, StreamState& s,
                  model::Nanos ts);
    static void write_text(std::string& text, std::size_t limit, const EventPlan& plan,
                           const bt_field* payload);
    void perf(const StreamState& s, const bt_field* ctx, model::Nanos ts, std::int32_t tid);
    void packet_beginning(const bt_message* m);
    void discarded(const bt_message* m, bool packets);
    StreamState& stream_state(const bt_stream* stream);
    std::function<std::string(std::string_view)> path_shown_;
    std::uint32_t plan_index(const bt_event_class* cls);
    model::Nanos timestamp(const bt_clock_snapshot* snapshot);
    model::Nanos no_clock_timestamp();

    CounterKeys keys_;
    model::Nanos zero_;
    ingest::IngestReport& report_;
    std::vector<model::Event>* out_ = nullptr;
    DeferredTexts* texts_ = nullptr;
    ThreadTable threads_;
    KernelMapper kernel_;
    AnnotationChannels channels_;

    std::unordered_map<const bt_stream*, StreamState> streams_;
    const bt_stream* last_stream_ = nullptr;
    StreamState* last_state_ = nullptr;
    std::uint64_t next_serial_ = 0;
    std::unordered_map<const bt_stream_class*, std::unique_ptr<StreamClassInfo>> stream_classes_;
    std::unordered_map<const bt_event_class*, std::uint32_t> plan_index_;
    std::vector<EventPlan> plans_;
    // The few event classes seen last (traces interleave a handful of classes): a lookup in
    // this small array is far cheaper than one in the hash map.
    static constexpr std::size_t kRecentClasses = 8;
    std::array<const bt_event_class*, kRecentClasses> recent_class_{};
    std::array<std::uint32_t, kRecentClasses> recent_index_{};
    std::size_t recent_next_ = 0;
    std::unordered_map<std::uint64_t, std::int64_t> perf_last_;  // (key, thread/core) -> value
    const model::CaptureCounters& counters_;

    model::Nanos last_ = 0;
    std::int64_t last_clock_ = 0;
    std::uint64_t events_ = 0;
    std::uint64_t packets_ = 0;
    std::string text_;  // scratch for annotation text
};

}  // namespace apcgate::collectors::ctf
