#include "collectors/perf/event_batches.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

namespace apcgate::collectors::perf {

void EventBatches::recycle(std::vector<model::Event>&& v) {
    v.clear();
    if (spares_.size() < kSpares && v.capacity() > 0) spares_.push_back(std::move(v));
}

void EventBatches::push(std::vector<model::Event>& batch) {
    if (batch.empty()) return;
    size_ += batch.size();
    batches_.push_back(std::move(batch));
    batch = std::vector<model::Event>();
    if (!spares_.empty()) {
        batch.swap(spares_.back());
        spares_.pop_back();
    }
}

void EventBatches::pop_front() {
    recycle(std::move(batches_.front()));
    batches_.pop_front();
    head_ = 0;
}

std::size_t EventBatches::take(std::vector<model::Event>& out, std::size_t max) {
    const std::size_t want = std::min(size_, max);
    std::size_t taken = 0;
    // The front batch by swapping vectors when it has room for the whole take: out's empty
    // vector takes its place and is kept as a spare. Without the room, the batches that follow
    // would grow it by reallocation, into fresh pages, which costs more than moving them.
    if (want > 0 && out.empty() && head_ == 0 && batches_.front().size() <= want &&
        batches_.front().capacity() >= want) {
        out.swap(batches_.front());
        taken = out.size();
        pop_front();
    }
    // At most one growth, and a geometric one: a caller that appends poll after poll to one
    // vector (a test, a capture that keeps its events) must not reallocate it at every take.
    if (const std::size_t need = out.size() + (want - taken); need > out.capacity())
        out.reserve(std::max(need, 2 * out.capacity()));
    while (taken < want) {
        std::vector<model::Event>& front = batches_.front();
        const std::size_t n = std::min(front.size() - head_, want - taken);
        const auto from = front.begin() + static_cast<std::ptrdiff_t>(head_);
        out.insert(out.end(), std::make_move_iterator(from),
                   std::make_move_iterator(from + static_cast<std::ptrdiff_t>(n)));
        head_ += n;
        taken += n;
        if (head_ == front.size()) pop_front();
    }
    size_ -= taken;
    return taken;
}

void EventBatches::take_all(std::vector<model::Event>& out) {
    take(out, size_);
}

}  // namespace apcgate::collectors::perf
