#include "collectors/fxt/order_buffer.hpp"

#include <algorithm>
#include <iterator>

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

void OrderBuffer::add(std::vector<Item>& items, model::Nanos limit, std::vector<Item>& out,
                      std::size_t max_out, ingest::IngestReport& report) {
    bool straight = heap_.empty() && items.size() <= max_out - std::min(max_out, out.size());
    model::Nanos last = floor_;
    for (Item& item : items) {
        if (!straight) break;
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
        std::move(items.begin(), items.end(), std::back_inserter(out));
        floor_ = last;
        return;
    }
    for (Item& item : items) push(std::move(item), report);
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
