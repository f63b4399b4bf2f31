// XRay calls as Streamline spans, through the shared SpanChannels: each thread is an
// annotation group named after it ("<program> pid P tid T"), each call depth a channel; an
// entry opens a span whose text is the function name and its arguments on its depth's channel,
// and the matching exit or tail exit closes it with an empty annotation on the same channel.
// Custom and typed events are notes on the thread's "events" channel. The span annotations go
// out as model::SpanRun events (many annotations in one), everything else as its own event.
//
// Matching is by function id against the thread's stack of open calls, never by guessing:
//   - an exit whose function is not among the top kSearchDepth open calls began before the
//     trace (or its entry was lost): counted as xray_exits_without_entry, nothing shown;
//   - an exit of a call below the top closes the calls above it first (their exits were lost,
//     e.g. by the runtime's short-call elision): each is counted as xray_entries_without_exit;
//   - calls still open when their thread's data ends close at the thread's last time, counted
//     as xray_entries_without_exit.
// Calls deeper than kMaxDepth (SpanChannels' bound against hostile input, far beyond real
// recursion) are followed for matching but not shown (xray_calls_deeper_than_limit, and counted in
// calls_deeper_than_limit() for the source to report as a problem), and the stack itself stops
// at kMaxStack open calls, so a hostile log cannot grow it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "collectors/ingest/span_channels.hpp"
#include "collectors/xray/call_event.hpp"
#include "collectors/xray/function_names.hpp"
#include "collectors/xray/log_index.hpp"
#include "collectors/xray/xray_stats.hpp"

namespace apcgate::collectors::xray {

class SpanMapper {
  public:
    static constexpr std::size_t kMaxDepth = ingest::SpanChannels::kMaxDepth;
    static constexpr std::size_t kMaxStack = 65536;
    static_assert(kMaxStack > kMaxDepth);
    static constexpr std::size_t kSearchDepth = 64;
    // Room a new SpanRun starts with when no budget was given (it grows when needed).
    static constexpr std::size_t kRunReserve = 4096;

    // `program` names the process in thread labels ("" when unknown).
    SpanMapper(FunctionNames& names, Stats& stats, std::string program, std::string image)
        : names_(names), stats_(stats), program_(std::move(program)), image_(std::move(image)) {}

    // Maps `e` when it is one of the two events nearly every call is: an entry without
    // arguments, or the exit of the call on top, on a thread already named at a depth whose
    // channel is known. False, and nothing done, for anything else (event() maps every event;
    // the caller tries this first). Forced inline into the caller's loop: out of line, event()'s
    // call with its seven arguments costs about as much as this mapping itself, on the path
    // nearly every event takes (docs/performance.md).
    [[gnu::always_inline]] bool common_call(model::Nanos ts, std::uint32_t thread, std::int32_t tid,
                                            const CallEvent& e, std::vector<model::Event>& out) {
        if (thread >= threads_.size()) return false;
        ThreadState& s = threads_[thread];
        if (!s.named) return false;
        const std::size_t n = s.stack.size();
        if (e.kind == CallKind::Enter) {
            if (n >= kMaxDepth || n >= s.channels.size() || s.channels[n] < 0) return false;
            s.core = e.cpu;
            emit(ts, s.core, tid, s.channels[n], names_.name(e.function), out);
            stats_.mapped(Stat::FunctionEnter);
            s.stack.push_back(e.function);
            return true;
        }
        if (!is_exit(e.kind) || n == 0 || s.stack[n - 1] != e.function ||
            n - 1 >= s.channels.size() || s.channels[n - 1] < 0)
            return false;
        s.core = e.cpu;
        s.stack.pop_back();
        stats_.mapped(exit_stat(e.kind));
        emit(ts, s.core, tid, s.channels[n - 1], {}, out);
        return true;
    }

    // Maps any event. `ts` is the event's time on the capture's timeline.
    void event(model::Nanos ts, std::uint32_t thread, const ThreadInfo& info, const CallEvent& e,
               std::span<const std::uint64_t> args, std::span<const std::uint8_t> payload,
               std::vector<model::Event>& out);
    // Closes what the thread left open, at `ts` (its last event's time).
    void thread_end(model::Nanos ts, std::uint32_t thread, const ThreadInfo& info,
                    std::vector<model::Event>& out);

    static std::string thread_label(const std::string& program, const ThreadInfo& info);

    // Calls not shown because they were nested deeper than kMaxDepth, since the mapper was
    // made, and the deepest nesting met.
    [[nodiscard]] std::uint64_t calls_deeper_than_limit() const { return deeper_calls_; }
    [[nodiscard]] std::size_t deepest() const { return deepest_; }

    // About how many annotations the caller will map before it hands `out` over: each new
    // SpanRun reserves what is left of it, so a run never grows by copying itself.
    void budget(std::size_t annotations) { budget_ = annotations; }

  private:
    static Stat entry_stat(CallKind k) {
        return k == CallKind::EnterArgs ? Stat::FunctionEnterArgs : Stat::FunctionEnter;
    }
    static Stat exit_stat(CallKind k) {
        return k == CallKind::TailExit ? Stat::FunctionTailExit : Stat::FunctionExit;
    }
    struct ThreadState {
        std::vector<std::uint32_t> stack;    // function ids of the open calls, outermost first
        std::vector<std::int32_t> channels;  // SpanChannels' channel id by depth, -1 unknown
        std::int32_t events_channel = -1;
        std::int32_t core = 0;
        bool named = false;
    };
    ThreadState& state(std::uint32_t thread) {
        if (thread >= threads_.size()) threads_.resize(thread + 1);
        return threads_[thread];
    }
    void name(model::Nanos ts, const ThreadInfo& info, ThreadState& s,
              std::vector<model::Event>& out);
    void open(model::Nanos ts, const ThreadInfo& info, ThreadState& s, std::size_t depth,
              std::string_view text, std::vector<model::Event>& out);
    void note(model::Nanos ts, const ThreadInfo& info, ThreadState& s, std::string text,
              std::vector<model::Event>& out);
    static std::int32_t channel_of(const model::Event& just_made);
    // Appends a span annotation to the SpanRun at the end of `out` (inline: every call goes
    // through here twice).
    [[gnu::always_inline]] void emit(model::Nanos ts, std::int32_t core, std::int32_t tid,
                                     std::int32_t channel, std::string_view text,
                                     std::vector<model::Event>& out) {
        model::SpanRun* run = out.empty() ? nullptr : std::get_if<model::SpanRun>(&out.back());
        if (run == nullptr || !run->fits(text.size())) run = &new_run(out);
        run->add(ts, core, tid, channel, text);
        if (budget_ > 1) --budget_;
    }
    model::SpanRun& new_run(std::vector<model::Event>& out);
    void close_top(model::Nanos ts, const ThreadInfo& info, ThreadState& s,
                   std::vector<model::Event>& out);
    void exit(model::Nanos ts, const ThreadInfo& info, ThreadState& s, const CallEvent& e,
              std::vector<model::Event>& out);

    FunctionNames& names_;
    Stats& stats_;
    std::string program_;
    std::string image_;
    ingest::SpanChannels spans_;
    std::vector<ThreadState> threads_;
    std::string text_;  // a call's text with its arguments
    std::size_t budget_ = 0;
    std::uint64_t deeper_calls_ = 0;
    std::size_t deepest_ = 0;
};

}  // namespace apcgate::collectors::xray
