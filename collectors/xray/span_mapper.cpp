#include "collectors/xray/span_mapper.hpp"

#include <algorithm>
#include <string_view>

#include "collectors/xray/event_text.hpp"

namespace apcgate::collectors::xray {

namespace {

// Bytes of text a SpanRun reserves per annotation: half are empty (a span's end), names are
// mostly short.
constexpr std::size_t kTextReserve = 12;

}  // namespace

std::string SpanMapper::thread_label(const std::string& program, const ThreadInfo& info) {
    std::string s = program;
    // Appended piece by piece: GCC 12 misreads "a" + b + c here as overlapping copies
    // (-Wrestrict), and this builds one string instead of three.
    const auto add = [&s](std::string_view word, auto number) {
        if (!s.empty()) s += ' ';
        s += word;
        s += std::to_string(number);
    };
    if (info.pid_known) add("pid ", info.pid);
    add("tid ", info.tid);
    return s;
}

void SpanMapper::name(model::Nanos ts, const ThreadInfo& info, ThreadState& s,
                      std::vector<model::Event>& out) {
    s.named = true;
    const std::string label = thread_label(program_, info);
    out.push_back(model::ThreadName{ts, s.core, info.tid, label});
    if (info.pid_known)
        out.push_back(model::ProcComm{ts, s.core, info.pid, info.tid, image_, label});
    spans_.name_thread(ts, info.tid, label, out);
}

void SpanMapper::event(model::Nanos ts, std::uint32_t thread, const ThreadInfo& info,
                       const CallEvent& e, std::span<const std::uint64_t> args,
                       std::span<const std::uint8_t> payload, std::vector<model::Event>& out) {
    ThreadState& s = state(thread);
    s.core = e.cpu;
    if (!s.named) name(ts, info, s, out);
    switch (e.kind) {
        case CallKind::Enter:
        case CallKind::EnterArgs: {
            const std::size_t depth = s.stack.size();
            // Deeper than kMaxDepth: not shown; the call is still followed for matching up to
            // kMaxStack open calls (kMaxStack > kMaxDepth), then not even kept.
            if (depth >= kMaxDepth) {
                ++deeper_calls_;
                deepest_ = std::max(deepest_, depth + 1);
                stats_.count(XrayStat::CallsDeeperThanLimit);
                stats_.skipped(entry_stat(e.kind));
                if (!args.empty()) stats_.skipped(Stat::CallArgument, args.size());
                if (depth >= kMaxStack) return;
            } else {
                // Most calls log no arguments: their text is the name as it is (never empty).
                std::string_view text = names_.name(e.function);
                if (!args.empty()) {
                    text_ = call_text(text, args);
                    text = text_;
                }
                open(ts, info, s, depth, text, out);
                stats_.mapped(entry_stat(e.kind));
                if (!args.empty()) stats_.mapped(Stat::CallArgument, args.size());
            }
            s.stack.push_back(e.function);
            return;
        }
        case CallKind::Exit:
        case CallKind::TailExit:
            exit(ts, info, s, e, out);
            return;
        case CallKind::CustomEvent:
            note(ts, info, s, event_text("custom", payload), out);
            stats_.mapped(Stat::CustomEvent);
            return;
        case CallKind::TypedEvent:
            note(ts, info, s, event_text("typed " + std::to_string(e.function), payload), out);
            stats_.mapped(Stat::TypedEvent);
            return;
    }
}

void SpanMapper::close_top(model::Nanos ts, const ThreadInfo& info, ThreadState& s,
                           std::vector<model::Event>& out) {
    s.stack.pop_back();
    const std::size_t depth = s.stack.size();
    if (depth >= kMaxDepth) return;
    if (depth < s.channels.size() && s.channels[depth] >= 0) {
        emit(ts, s.core, info.tid, s.channels[depth], {}, out);
    } else {
        spans_.close(ts, s.core, info.tid, static_cast<int>(depth), out);
    }
}

// SpanChannels names each (thread, depth) channel once and keeps its id; from a channel's first
// span on, the id is kept here by depth and the annotations are made directly, which spares a
// map lookup and two string moves per call (most of the mapping's cost in a large log).
void SpanMapper::open(model::Nanos ts, const ThreadInfo& info, ThreadState& s, std::size_t depth,
                      std::string_view text, std::vector<model::Event>& out) {
    if (depth < s.channels.size() && s.channels[depth] >= 0 && !text.empty()) {
        emit(ts, s.core, info.tid, s.channels[depth], text, out);
        return;
    }
    spans_.open(ts, s.core, info.tid, static_cast<int>(depth), std::string(text), out);
    if (depth >= s.channels.size()) s.channels.resize(depth + 1, -1);
    s.channels[depth] = channel_of(out.back());
}

void SpanMapper::note(model::Nanos ts, const ThreadInfo& info, ThreadState& s, std::string text,
                      std::vector<model::Event>& out) {
    if (s.events_channel < 0 || text.empty()) {
        spans_.note(ts, s.core, info.tid, std::move(text), out);
        s.events_channel = channel_of(out.back());
        return;
    }
    emit(ts, s.core, info.tid, s.events_channel, text, out);
    emit(ts, s.core, info.tid, s.events_channel, {}, out);
}

std::int32_t SpanMapper::channel_of(const model::Event& just_made) {
    const auto& a = std::get<model::Annotation>(just_made);
    return std::get<model::StringAnnotation>(a.body).channel;
}

// Spans go into the SpanRun at the end of `out`, or a new one when another event was made last
// (a channel's first span, a thread's name, a counter sample): one event per stretch of calls,
// the texts copied once, into the run.
model::SpanRun& SpanMapper::new_run(std::vector<model::Event>& out) {
    auto& run = std::get<model::SpanRun>(out.emplace_back(std::in_place_type<model::SpanRun>));
    const std::size_t room = budget_ > 1 ? budget_ : kRunReserve;
    run.items.reserve(room);
    run.texts.reserve(room * kTextReserve);
    return run;
}

void SpanMapper::exit(model::Nanos ts, const ThreadInfo& info, ThreadState& s, const CallEvent& e,
                      std::vector<model::Event>& out) {
    const std::size_t n = s.stack.size();
    const std::size_t reach = std::min(n, kSearchDepth);
    std::size_t found = n;
    for (std::size_t k = 0; k < reach; ++k) {
        if (s.stack[n - 1 - k] == e.function) {
            found = n - 1 - k;
            break;
        }
    }
    if (found == n) {
        stats_.count(XrayStat::ExitsWithoutEntry);
        stats_.skipped(exit_stat(e.kind));
        return;
    }
    while (s.stack.size() > found + 1) {
        stats_.count(XrayStat::EntriesWithoutExit);
        close_top(ts, info, s, out);
    }
    if (found < kMaxDepth) {
        stats_.mapped(exit_stat(e.kind));
    } else {
        stats_.skipped(exit_stat(e.kind));
    }
    close_top(ts, info, s, out);
}

void SpanMapper::thread_end(model::Nanos ts, std::uint32_t thread, const ThreadInfo& info,
                            std::vector<model::Event>& out) {
    ThreadState& s = state(thread);
    while (!s.stack.empty()) {
        stats_.count(XrayStat::EntriesWithoutExit);
        close_top(ts, info, s, out);
    }
}

}  // namespace apcgate::collectors::xray
