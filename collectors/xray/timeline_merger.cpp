#include "collectors/xray/timeline_merger.hpp"

#include <limits>

namespace apcgate::collectors::xray {

TimelineMerger::TimelineMerger(std::vector<std::unique_ptr<ThreadCursor>>& cursors)
    : cursors_(cursors) {
    for (std::uint32_t t = 0; t < cursors_.size(); ++t) {
        if (const CallEvent* e = cursors_[t]->peek()) heap_.emplace(e->ns, t);
    }
}

// The current thread's next event was later than the earliest other thread's, or it ran out,
// or nothing is being read yet.
TimelineMerger::Step TimelineMerger::next_slow(std::uint32_t& thread, const CallEvent*& event) {
    if (current_ != nullptr) {
        ThreadCursor* c = current_;
        current_ = nullptr;
        const CallEvent* e = c->peek();  // already popped by next()
        if (e == nullptr) {
            thread = c->thread();
            return Step::ThreadEnd;
        }
        heap_.emplace(e->ns, c->thread());
    }
    if (heap_.empty()) return Step::Done;
    const std::uint32_t t = heap_.top().second;
    heap_.pop();
    current_ = cursors_[t].get();
    limit_ = heap_.empty() ? Key{std::numeric_limits<model::Nanos>::max(), 0} : heap_.top();
    thread = t;
    event = current_->peek();
    return Step::Event;
}

}  // namespace apcgate::collectors::xray
