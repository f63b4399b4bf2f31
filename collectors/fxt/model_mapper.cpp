#include "collectors/fxt/model_mapper.hpp"

#include <algorithm>
#include <utility>

#include "collectors/fxt/record_kinds.hpp"
#include "protocol/model/span_run_pool.hpp"

namespace apcgate::collectors::fxt {

namespace {
// Annotations a new SpanRun has room for, and text bytes per annotation: it grows when a longer
// stretch comes (an archive without context switches or counters between its spans).
constexpr std::size_t kRunReserve = 16;
constexpr std::size_t kTextReserve = 16;
// Open spans a thread's stack keeps room for once it is empty again.
constexpr std::size_t kKeptStack = 64;
}  // namespace

ModelMapper::ModelMapper(const ArchiveIndex& index, KoidMap& koids, const CaptureContext& ctx,
                         ingest::IngestReport& report)
    : index_(index), koids_(koids), report_(report), zero_(ctx.zero_monotonic_ns) {
    for (const auto& s : index.counters.series())
        series_keys_.push_back(ctx.counters.key(s.identifier));
    activity_key_ = ctx.counters.key(kActivityCounter);
}

void ModelMapper::map(Item& item, std::vector<model::Event>& out) {
    flush(item.ts, out);
    const model::Nanos ts = rel(item.ts);
    switch (item.kind) {
        case ItemKind::Note:
            note(ts, item.tid, item.text, out);
            break;
        case ItemKind::SpanOpen:
            open_span(item, out);
            break;
        case ItemKind::SpanClose:
            close_span(item, out);
            break;
        case ItemKind::AsyncOpen:
        case ItemKind::AsyncClose:
        case ItemKind::FlowOpen:
        case ItemKind::FlowStep:
        case ItemKind::FlowClose:
            channel_op(item, out);
            break;
        case ItemKind::Counter:
            counter(item, out);
            break;
        case ItemKind::Switch:
            context_switch(item, out);
            break;
        case ItemKind::ThreadName:
            thread_name(ts, item.tid, item.pid, item.text, out);
            break;
        case ItemKind::ProcessName:
            process_name(item, out);
            break;
        case ItemKind::Marker:
            out.push_back(model::Annotation{
                ts, 0, 0, model::MarkerAnnotation{std::nullopt, std::move(item.text)}});
            break;
    }
}

void ModelMapper::flush(model::Nanos limit, std::vector<model::Event>& out) {
    while (!pending_.empty() && pending_.top().end <= limit) {
        const PendingEnd p = pending_.top();
        pending_.pop();
        end_span(rel(p.end), p.tid, p.serial, out);
    }
}

ModelMapper::ThreadSpans& ModelMapper::thread(std::int32_t tid) {
    if (last_ == nullptr || tid != last_tid_) {
        last_ = &threads_[tid];  // unordered_map: references stay valid as it grows
        last_tid_ = tid;
    }
    return *last_;
}

// SpanChannels names each (thread, depth) channel once; its id is kept here by depth, which
// spares a map lookup per annotation.
std::int32_t ModelMapper::channel(model::Nanos ts, std::int32_t tid, ThreadSpans& t, int depth,
                                  std::vector<model::Event>& out) {
    const std::size_t at = static_cast<std::size_t>(depth) + 1;  // -1, the row of notes, is slot 0
    if (at < t.channels.size() && t.channels[at] != 0) return t.channels[at];
    if (at >= t.channels.size()) t.channels.resize(at + 1, 0);
    t.channels[at] = spans_.channel(ts, tid, depth, out);
    return t.channels[at];
}

model::SpanRun& ModelMapper::new_run(std::vector<model::Event>& out) {
    // From the buffers of runs the engine encoded already (span_run_pool.hpp).
    return std::get<model::SpanRun>(
        out.emplace_back(model::span_run_pool::take(kRunReserve, kRunReserve * kTextReserve)));
}

void ModelMapper::note(model::Nanos ts, std::int32_t tid, std::string_view text,
                       std::vector<model::Event>& out) {
    const std::int32_t c = channel(ts, tid, thread(tid), -1, out);
    // A zero-length span: open and close at the same time. An empty text would close it at
    // once, so a note always shows something.
    emit(ts, tid, c, text.empty() ? "(empty)" : text, out);
    emit(ts, tid, c, {}, out);
}

void ModelMapper::open_span(Item& item, std::vector<model::Event>& out) {
    ThreadSpans& t = thread(item.tid);
    auto& stack = t.stack;
    OpenSpan s;
    s.depth = stack.empty() ? 0 : stack.back().depth + 1;
    s.end = item.value;
    s.serial = next_serial_++;
    s.shown = s.depth < kMaxDepth;
    if (!s.shown) {
        report_.skipped(kind::kTooDeep);
        ++too_deep_;
        deepest_ = std::max(deepest_, s.depth + 1);
        // A begin still takes a place on the stack, so that its end closes it and not its parent.
        if (s.end == kOpenEnded && stack.size() < kMaxStack) stack.push_back(s);
        return;
    }
    stack.push_back(s);
    const model::Nanos ts = rel(item.ts);
    const std::int32_t c = channel(ts, item.tid, t, s.depth, out);
    // An empty text would close the span instead.
    emit(ts, item.tid, c, item.text.empty() ? "?" : std::string_view(item.text), out);
    if (s.end != kOpenEnded) pending_.push({std::max(s.end, item.ts), s.serial, item.tid});
}

void ModelMapper::finish() {
    if (too_deep_ == 0) return;
    Error e = Error::at(
        ErrorKind::Limit,
        std::to_string(too_deep_) + " spans nested deeper than " + std::to_string(kMaxDepth) +
            " levels are not shown (the deepest nesting: " + std::to_string(deepest_) +
            " levels); the spans around them are");
    e.input = report_.input();
    e.record = std::string(kind::kTooDeep);
    report_.bad_record(std::move(e));
    too_deep_ = 0;
}

void ModelMapper::close_span(const Item& item, std::vector<model::Event>& out) {
    auto& stack = thread(item.tid).stack;
    // The innermost span opened by a begin: a complete span still open inside it ends by time.
    auto it = std::find_if(stack.rbegin(), stack.rend(),
                           [](const OpenSpan& s) { return s.end == kOpenEnded; });
    if (it == stack.rend()) {
        report_.skipped(kind::kUnmatchedEnd);
        return;
    }
    end_span(rel(item.ts), item.tid, it->serial, out);
}

void ModelMapper::end_span(model::Nanos ts, std::int32_t tid, std::uint64_t serial,
                           std::vector<model::Event>& out) {
    ThreadSpans& t = thread(tid);
    auto& stack = t.stack;
    auto it = std::find_if(stack.begin(), stack.end(),
                           [serial](const OpenSpan& s) { return s.serial == serial; });
    if (it == stack.end()) return;
    if (it->shown) emit(ts, tid, channel(ts, tid, t, it->depth, out), {}, out);
    stack.erase(it);
    // A hostile archive's deep stack gives its memory back once it is closed.
    if (stack.empty() && stack.capacity() > kKeptStack) stack = {};
}

void ModelMapper::channel_op(Item& item, std::vector<model::Event>& out) {
    const model::Nanos ts = rel(item.ts);
    AsyncChannels::Result r = AsyncChannels::Result::Done;
    switch (item.kind) {
        case ItemKind::AsyncOpen:
            r = async_.open(ts, item.tid, false, item.id, std::move(item.text), out);
            break;
        case ItemKind::FlowOpen:
            r = async_.open(ts, item.tid, true, item.id, std::move(item.text), out);
            break;
        case ItemKind::FlowStep:
            r = async_.step(ts, item.tid, item.id, std::move(item.text), out);
            break;
        case ItemKind::AsyncClose:
            r = async_.close(ts, item.tid, false, item.id, out);
            break;
        case ItemKind::FlowClose:
            r = async_.close(ts, item.tid, true, item.id, out);
            break;
        default:
            break;
    }
    if (r == AsyncChannels::Result::Unmatched) report_.skipped(kind::kUnmatchedAsyncEnd);
    if (r == AsyncChannels::Result::TooManyChannels) report_.skipped(kind::kTooManyChannels);
}

void ModelMapper::context_switch(const Item& item, std::vector<model::Event>& out) {
    if (!activity_key_) {
        report_.skipped(kind::kCounterOff);
        return;
    }
    const model::Nanos ts = rel(item.ts);
    model::ActivitySwitch a;
    a.ts = ts;
    a.core = item.cpu;
    a.key = *activity_key_;
    a.activity = item.tid >= 0 ? 1 : 0;
    a.tid = item.tid >= 0 ? item.tid : -1;
    a.wait = (item.flags & kOutgoingPreempted) != 0 ? model::WaitState::Contention
                                                    : model::WaitState::Other;
    out.push_back(a);
    if ((item.flags & kOutgoingDead) != 0 && item.other > 0)
        out.push_back(model::TaskExit{ts, item.other});
}

void ModelMapper::counter(const Item& item, std::vector<model::Event>& out) {
    const auto& key = series_keys_.at(item.id);
    if (!key) {
        report_.skipped(kind::kCounterOff);
        return;
    }
    out.push_back(model::CounterSample{rel(item.ts), 0, *key, item.value, -1});
}

}  // namespace apcgate::collectors::fxt
