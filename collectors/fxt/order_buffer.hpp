// Holds items until the archive reader knows nothing earlier can come, then hands them out in
// time order. Its size is capped: if a provider's lag would need more (say, one duration
// complete event spanning a trace of millions of records), the oldest items go out early and
// any item that then arrives older than what went out is moved up to that time and counted
// under kind::kLateEvent, instead of memory growing with the input.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "collectors/fxt/items.hpp"
#include "collectors/ingest/ingest_report.hpp"

namespace apcgate::collectors::fxt {

class OrderBuffer {
  public:
    static constexpr std::size_t kDefaultCapacity = std::size_t{1} << 18;

    explicit OrderBuffer(std::size_t capacity = kDefaultCapacity) : capacity_(capacity) {}

    void push(Item item, ingest::IngestReport& report);
    // For the items a record just appended to `out`, from index `first` on: what push() of each
    // of them, then release(limit, out, max_out) would give. When nothing is held and they come
    // in time order, none later than `limit`, and `out` has no more than `max_out` items, that
    // is to leave them where they are (in an archive written in time order nearly every
    // record's items pass so, and are built where they stay); else they are moved into the heap.
    void take_appended(std::vector<Item>& out, std::size_t first, model::Nanos limit,
                       std::size_t max_out, ingest::IngestReport& report);
    // Moves items with ts <= limit to `out`, oldest first, until `out` holds `max_out` items;
    // beyond the capacity the oldest go out whatever `limit` says.
    void release(model::Nanos limit, std::vector<Item>& out, std::size_t max_out);

    [[nodiscard]] bool empty() const { return heap_.empty(); }
    [[nodiscard]] std::size_t size() const { return heap_.size(); }
    // Earliest held item (kNever when empty).
    [[nodiscard]] model::Nanos earliest() const;
    // Every item handed out from now on has ts >= floor().
    [[nodiscard]] model::Nanos floor() const { return floor_; }

  private:
    void pop_into(std::vector<Item>& out);

    std::vector<Item> heap_;  // min-heap by (ts, seq)
    std::size_t capacity_;
    model::Nanos floor_ = std::numeric_limits<model::Nanos>::min();
};

}  // namespace apcgate::collectors::fxt
