#include "collectors/xray/timeline_merger.hpp"

#include <algorithm>

namespace apcgate::collectors::xray {

TimelineMerger::TimelineMerger(std::vector<std::unique_ptr<ThreadCursor>>& cursors)
    : cursors_(cursors) {
    std::vector<Key> heads;
    for (std::uint32_t t = 0; t < cursors_.size(); ++t) {
        if (const CallEvent* e = cursors_[t]->peek()) heads.emplace_back(e->ns, t);
    }
    scan_ = heads.size() <= kScanLimit;
    if (scan_) {
        for (const Key& k : heads) add_slot(k);
    } else {
        heap_ = decltype(heap_)(std::greater<>(), std::move(heads));
    }
}

// Puts the thread of `k` (its next time and index) in the next free slot of the arrays.
void TimelineMerger::add_slot(const Key& k) {
    ThreadCursor* c = cursors_[k.second].get();
    cursor_[live_] = c;
    thread_[live_] = c->thread();
    head_[live_] = c->ready_begin();
    end_[live_] = c->ready_end();
    ns_[live_] = k.first;
    ++live_;
}

// The chunk has been handed out: merge the next one.
TimelineMerger::Step TimelineMerger::next_slow(std::uint32_t& thread, const CallEvent*& event) {
    if (!fill()) return Step::Done;
    return next(thread, event);
}

bool TimelineMerger::fill() {
    pos_ = 0;
    size_ = 0;
    if (!scan_) {
        Merged m{};
        m.step = from_heap(m.thread, m.event);
        if (m.step == Step::Done) return false;
        if (scan_) {
            // Enough threads ended: from_heap() merged a chunk and handed out its first step,
            // which goes out again with the rest.
            --pos_;
            return true;
        }
        chunk_[0] = m;
        size_ = 1;
        return true;
    }
    refill_dry();
    merge_chunk();
    return size_ != 0;
}

// The thread whose batch ran dry decodes its next batch (nothing points into the old one any
// more), or, having no more, ends: its end is the first step of the chunk.
void TimelineMerger::refill_dry() {
    if (dry_ == kNone) return;
    const std::size_t s = dry_;
    dry_ = kNone;
    ThreadCursor* c = cursor_[s];
    c->take_until(head_[s]);
    const CallEvent* e = c->peek();
    if (e == nullptr) {
        chunk_[size_++] = Merged{nullptr, c->thread(), Step::ThreadEnd};
        remove_slot(s);
        return;
    }
    head_[s] = c->ready_begin();
    end_[s] = c->ready_end();
    ns_[s] = e->ns;
}

void TimelineMerger::remove_slot(std::size_t slot) {
    for (std::size_t i = slot + 1; i < live_; ++i) {
        ns_[i - 1] = ns_[i];
        head_[i - 1] = head_[i];
        end_[i - 1] = end_[i];
        cursor_[i - 1] = cursor_[i];
        thread_[i - 1] = thread_[i];
    }
    --live_;
}

// Five to sixteen threads: picks the earliest thread (the first of equal times: the slots are
// in index order) and takes its events while they are earlier than every other thread's next
// event, then picks again, until a batch runs dry or the chunk is full. With more threads than
// merge_four() takes, runs of one thread are longer and a pick costs more, so the runs pay.
void TimelineMerger::merge_chunk() {
    const std::size_t live = live_;
    if (live == 0) return;
    if (live <= 4) {
        merge_four();
        return;
    }
    std::size_t n = size_;
    while (n < kChunk) {
        std::size_t at = 0;
        model::Nanos best = ns_[0];
        for (std::size_t i = 1; i < live; ++i) {
            const bool less = ns_[i] < best;
            best = less ? ns_[i] : best;
            at = less ? i : at;
        }
        // The picked thread goes on while it is earlier than every other thread's next event,
        // or equal to one after it in index order (it wins that tie). Times stay far below
        // kEndNs, so the +1 cannot overflow.
        model::Nanos limit = kEndNs;
        for (std::size_t i = 0; i < live; ++i) {
            model::Nanos v = ns_[i] + (i > at ? 1 : 0);
            v = i == at ? kEndNs : v;
            limit = v < limit ? v : limit;
        }
        const std::uint32_t thread = thread_[at];
        const CallEvent* p = head_[at];
        const CallEvent* const end = end_[at];
        do {  // the head is the earliest, so the run takes at least it
            chunk_[n++] = Merged{p, thread, Step::Event};
            ++p;
        } while (p != end && n < kChunk && p->ns < limit);
        head_[at] = p;
        if (p == end) {
            dry_ = at;
            break;
        }
        ns_[at] = p->ns;
    }
    size_ = n;
    for (std::size_t i = 0; i < live; ++i) {
        if (i != dry_) cursor_[i]->take_until(head_[i]);
    }
}

// Up to four threads (most logs), with every thread's head and time in registers: the earliest
// is picked by a two-level tree of comparisons (the left, lower-indexed side wins ties) and the
// picked thread's next time is read from the event after it (or its end marker, which stops
// the chunk). Missing threads are end markers that never win.
void TimelineMerger::merge_four() {
    static const CallEvent kAbsent = [] {
        CallEvent e{};
        e.ns = kEndNs;
        return e;
    }();
    const CallEvent* p[4];
    model::Nanos t[4];
    for (std::size_t i = 0; i < 4; ++i) {
        p[i] = i < live_ ? head_[i] : &kAbsent;
        t[i] = i < live_ ? ns_[i] : kEndNs;
    }
    const CallEvent *p0 = p[0], *p1 = p[1], *p2 = p[2], *p3 = p[3];
    model::Nanos t0 = t[0], t1 = t[1], t2 = t[2], t3 = t[3];
    std::size_t n = size_;
    Merged* const out = chunk_.data();
    const std::uint32_t* const threads = thread_.data();
    while (n < kChunk) {
        const bool right01 = t1 < t0;
        const model::Nanos t01 = right01 ? t1 : t0;
        const CallEvent* const p01 = right01 ? p1 : p0;
        const bool right23 = t3 < t2;
        const model::Nanos t23 = right23 ? t3 : t2;
        const CallEvent* const p23 = right23 ? p3 : p2;
        const bool right = t23 < t01;
        const std::size_t at = right ? 2U + right23 : 0U + right01;
        const CallEvent* q = right ? p23 : p01;
        out[n++] = Merged{q, threads[at], Step::Event};
        ++q;
        const model::Nanos tq = q->ns;
        p0 = at == 0 ? q : p0;
        p1 = at == 1 ? q : p1;
        p2 = at == 2 ? q : p2;
        p3 = at == 3 ? q : p3;
        t0 = at == 0 ? tq : t0;
        t1 = at == 1 ? tq : t1;
        t2 = at == 2 ? tq : t2;
        t3 = at == 3 ? tq : t3;
        if (tq == kEndNs) {
            dry_ = at;
            break;
        }
    }
    size_ = n;
    p[0] = p0, p[1] = p1, p[2] = p2, p[3] = p3;
    t[0] = t0, t[1] = t1, t[2] = t2, t[3] = t3;
    for (std::size_t i = 0; i < live_; ++i) {
        head_[i] = p[i];
        ns_[i] = t[i];
        if (i != dry_) cursor_[i]->take_until(p[i]);
    }
}

// Many threads: the heap merge, one event at a time, until enough threads have ended for the
// chunks.
TimelineMerger::Step TimelineMerger::from_heap(std::uint32_t& thread, const CallEvent*& event) {
    if (heap_current_ != nullptr) {
        ThreadCursor* c = heap_current_;
        c->pop();
        const CallEvent* e = c->peek();
        if (e != nullptr && Key(e->ns, c->thread()) < heap_limit_) {
            thread = c->thread();
            event = e;
            return Step::Event;
        }
        heap_current_ = nullptr;
        if (e == nullptr) {
            thread = c->thread();
            return Step::ThreadEnd;
        }
        heap_.emplace(e->ns, c->thread());
    }
    if (heap_.size() <= kScanLimit) {
        to_scan();
        return next_slow(thread, event);
    }
    const std::uint32_t t = heap_.top().second;
    heap_.pop();
    heap_current_ = cursors_[t].get();
    heap_limit_ = heap_.top();  // the heap holds more than kScanLimit threads
    thread = t;
    event = heap_current_->peek();
    return Step::Event;
}

// Every live thread is in the heap (none is being read): they move to the arrays, in index order.
void TimelineMerger::to_scan() {
    std::vector<Key> rest;
    for (; !heap_.empty(); heap_.pop()) rest.push_back(heap_.top());
    std::sort(rest.begin(), rest.end(),
              [](const Key& a, const Key& b) { return a.second < b.second; });
    live_ = 0;
    for (const Key& k : rest) add_slot(k);
    heap_ = {};
    scan_ = true;
}

}  // namespace apcgate::collectors::xray
