#include "collectors/fxt/order_buffer.hpp"

#include <algorithm>

#include "collectors/fxt/record_kinds.hpp"
#include "collectors/source.hpp"

namespace apcgate::collectors::fxt {

void OrderBuffer::push(Item item, ingest::IngestReport& report) {
    if (item.ts < floor_) {
        item.ts = floor_;
        report.mapped(kind::kLateEvent);
    }
    heap_.push_back(std::move(item));
    std::push_heap(heap_.begin(), heap_.end(), LaterItem{});
}

void OrderBuffer::take_appended(std::vector<Item>& out, std::size_t first, model::Nanos limit,
                                std::size_t max_out, ingest::IngestReport& report) {
    bool straight = heap_.empty() && out.size() <= max_out;
    model::Nanos last = floor_;
    for (std::size_t i = first; straight && i < out.size(); ++i) {
        Item& item = out[i];
        // As push() would: what is older than what went out already is moved up to it.
        if (item.ts < floor_) {
            item.ts = floor_;
            report.mapped(kind::kLateEvent);
        }
        straight = item.ts >= last && item.ts <= limit;
        last = item.ts;
    }
    if (straight) {
        // Items of one record are in file (seq) order, so time order is (ts, seq) order.
        floor_ = last;
        return;
    }
    for (std::size_t i = first; i < out.size(); ++i) push(std::move(out[i]), report);
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
    release(limit, out, max_out);
}

model::Nanos OrderBuffer::earliest() const {
    return heap_.empty() ? kNever : heap_.front().ts;
}

void OrderBuffer::pop_into(std::vector<Item>& out) {
    std::pop_heap(heap_.begin(), heap_.end(), LaterItem{});
    floor_ = std::max(floor_, heap_.back().ts);
    out.push_back(std::move(heap_.back()));
    heap_.pop_back();
}

void OrderBuffer::release(model::Nanos limit, std::vector<Item>& out, std::size_t max_out) {
    while (!heap_.empty() && out.size() < max_out &&
           (heap_.front().ts <= limit || heap_.size() > capacity_)) {
        pop_into(out);
    }
}

}  // namespace apcgate::collectors::fxt
