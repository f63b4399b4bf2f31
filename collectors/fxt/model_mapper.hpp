// Turns items, in time order, into model events (protocol/model/event.hpp):
//  - kernel objects -> ThreadName and ProcComm (and the thread's annotation group name);
//  - context switches -> ActivitySwitch on the record's CPU (activity 1 = a thread runs, 0 =
//    idle; wait state Contention when the outgoing thread was preempted), TaskExit when the
//    outgoing thread is dead;
//  - duration begin / complete -> a string annotation "category:name args" on the thread's
//    channel for its nesting depth (SpanChannels), duration end and a complete's end time -> an
//    empty one; instants and logs -> a zero-length annotation on the thread;
//  - async and flow events -> spans on a channel per correlation id (AsyncChannels);
//  - counter values -> CounterSample of the series' counter.
// The thread span annotations go out as model::SpanRun events (a stretch of annotations in one
// event, texts back to back), everything else as its own event.
// Depth is decided here, in time order, so spans written in any order (a complete event is
// written when it ends, after what it contains) nest by their times.
#pragma once

#include <algorithm>
#include <queue>
#include <unordered_map>
#include <vector>

#include "collectors/fxt/archive_index.hpp"
#include "collectors/fxt/async_channels.hpp"
#include "collectors/fxt/items.hpp"
#include "collectors/ingest/ingest_report.hpp"
#include "collectors/ingest/span_channels.hpp"
#include "collectors/source.hpp"

namespace apcgate::collectors::fxt {

// The activity counter of context switches.
inline constexpr const char* kActivityCounter = "FXT_cpu_activity";

class ModelMapper {
  public:
    // Deeper spans are counted, not shown, and reported by finish() as one problem.
    static constexpr int kMaxDepth = ingest::SpanChannels::kMaxDepth;
    // Open spans kept per thread (a hostile archive's begins without ends cannot grow it).
    static constexpr std::size_t kMaxStack = 65536;

    ModelMapper(const ArchiveIndex& index, KoidMap& koids, const CaptureContext& ctx,
                ingest::IngestReport& report);

    // Names known from the whole archive, at `ts` (absolute ns), before any event uses them.
    void prelude(model::Nanos ts, std::vector<model::Event>& out);
    // Moves the item's text into the events.
    void map(Item& item, std::vector<model::Event>& out);
    // Ends the complete spans whose end time is <= limit (absolute ns).
    void flush(model::Nanos limit, std::vector<model::Event>& out);
    // At the end of the read: reports what the mapping left out as problems with their count.
    void finish();

  private:
    struct OpenSpan {
        int depth = 0;
        model::Nanos end = kOpenEnded;  // of a complete span; kOpenEnded for a begin
        std::uint64_t serial = 0;
        bool shown = true;
    };
    // A thread's open spans and the channels its annotations go to.
    struct ThreadSpans {
        std::vector<OpenSpan> stack;  // outermost first
        // SpanChannels' channel by depth + 1 (0: the notes' "events" row); 0 until first used.
        std::vector<std::int32_t> channels;
    };
    struct PendingEnd {
        model::Nanos end;
        std::uint64_t serial;
        std::int32_t tid;
        bool operator>(const PendingEnd& o) const {
            return end != o.end ? end > o.end : serial > o.serial;
        }
    };

    // On the capture's timeline. Never before its zero: a file rewritten between captures may
    // start earlier than the zero the capture was given (clamping keeps the order).
    [[nodiscard]] model::Nanos rel(model::Nanos abs) const {
        return std::max<model::Nanos>(abs - zero_, 0);
    }
    ThreadSpans& thread(std::int32_t tid);
    // The channel of `depth` (-1: the events row) on the thread, named when first used.
    std::int32_t channel(model::Nanos ts, std::int32_t tid, ThreadSpans& t, int depth,
                         std::vector<model::Event>& out);
    // Appends one string annotation (empty: a span's end) to the SpanRun at the end of `out`,
    // or to a new one when another event was made last.
    void emit(model::Nanos ts, std::int32_t tid, std::int32_t channel, std::string_view text,
              std::vector<model::Event>& out) {
        model::SpanRun* run = out.empty() ? nullptr : std::get_if<model::SpanRun>(&out.back());
        if (run == nullptr || !run->fits(text.size())) run = &new_run(out);
        run->add(ts, 0, tid, channel, text);
    }
    static model::SpanRun& new_run(std::vector<model::Event>& out);
    void note(model::Nanos ts, std::int32_t tid, std::string_view text,
              std::vector<model::Event>& out);
    void open_span(Item& item, std::vector<model::Event>& out);
    void close_span(const Item& item, std::vector<model::Event>& out);
    void end_span(model::Nanos ts, std::int32_t tid, std::uint64_t serial,
                  std::vector<model::Event>& out);
    void channel_op(Item& item, std::vector<model::Event>& out);
    void context_switch(const Item& item, std::vector<model::Event>& out);
    void counter(const Item& item, std::vector<model::Event>& out);
    void thread_name(model::Nanos ts, std::int32_t tid, std::int32_t pid, const std::string& name,
                     std::vector<model::Event>& out);
    void process_name(const Item& item, std::vector<model::Event>& out);

    const ArchiveIndex& index_;
    KoidMap& koids_;
    ingest::IngestReport& report_;
    model::Nanos zero_;
    std::vector<std::optional<model::CounterKey>> series_keys_;
    std::optional<model::CounterKey> activity_key_;
    ingest::SpanChannels spans_;
    AsyncChannels async_;
    std::unordered_map<std::int32_t, ThreadSpans> threads_;  // per tid
    // The last thread looked up: runs of one thread's items are the common case.
    std::int32_t last_tid_ = 0;
    ThreadSpans* last_ = nullptr;
    std::priority_queue<PendingEnd, std::vector<PendingEnd>, std::greater<>> pending_;
    std::uint64_t next_serial_ = 0;
    std::uint64_t too_deep_ = 0;  // spans not shown: nested deeper than kMaxDepth
    int deepest_ = 0;
    std::unordered_map<std::int32_t, std::string> thread_names_;
    std::unordered_map<std::int32_t, std::int32_t> thread_pids_;
    std::unordered_map<std::int32_t, std::string> process_names_;
};

}  // namespace apcgate::collectors::fxt
