#include "collectors/annotate/handover.hpp"

#include <algorithm>

#include "collectors/annotate/sockets.hpp"

namespace apcgate::collectors::annotate {

void Handover::begin(std::int64_t zero_ns) {
    std::lock_guard lock(mu_);
    events_.clear();
    pending_ = 0;
    zero_ = zero_ns;
    last_ = 0;
}

model::Nanos Handover::stamp() {
    last_ = std::max(last_, monotonic_now_ns() - zero_);
    return last_;
}

void Handover::push_data(std::int32_t id, std::span<const std::uint8_t> bytes) {
    if (bytes.empty()) return;
    std::lock_guard lock(mu_);
    if (!events_.empty()) {
        auto* last = std::get_if<model::ExternalData>(&events_.back());
        if (last != nullptr && last->id == id && last->bytes.size() + bytes.size() <= kMaxChunk) {
            last->bytes.insert(last->bytes.end(), bytes.begin(), bytes.end());
            pending_ += bytes.size();
            return;
        }
    }
    model::ExternalData d;
    d.ts = stamp();
    d.id = id;
    d.bytes.assign(bytes.begin(), bytes.end());
    events_.emplace_back(std::move(d));
    pending_ += bytes.size() + kEventOverhead;
}

void Handover::push_disconnect(std::int32_t id) {
    std::lock_guard lock(mu_);
    events_.emplace_back(model::ExternalDisconnect{stamp(), id});
    pending_ += kEventOverhead;
}

void Handover::push_annotation(std::int32_t tid, model::AnnotationBody body, std::size_t bytes) {
    std::lock_guard lock(mu_);
    model::Annotation a;
    a.ts = stamp();
    a.tid = tid;
    a.body = std::move(body);
    events_.emplace_back(std::move(a));
    pending_ += bytes + kEventOverhead;
}

std::size_t Handover::pending_bytes() const {
    std::lock_guard lock(mu_);
    return pending_;
}

std::uint64_t Handover::takes() const {
    std::lock_guard lock(mu_);
    return takes_;
}

model::Nanos Handover::take(std::vector<model::Event>& out) {
    std::lock_guard lock(mu_);
    out.insert(out.end(), std::make_move_iterator(events_.begin()),
               std::make_move_iterator(events_.end()));
    events_.clear();
    // Release the memory of a burst rather than keeping its peak for the rest of the run.
    if (events_.capacity() > 4096) events_.shrink_to_fit();
    pending_ = 0;
    ++takes_;
    // Taken with the lock held: every later event is stamped at or after this instant.
    return std::max(last_, monotonic_now_ns() - zero_);
}

}  // namespace apcgate::collectors::annotate
