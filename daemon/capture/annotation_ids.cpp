#include "daemon/capture/annotation_ids.hpp"

#include <limits>

namespace apcgate::daemon {

bool AnnotationIds::Space::taken(std::int32_t capture_id) const {
    if (capture_id > 0 && capture_id < kDense)
        return static_cast<std::size_t>(capture_id) < taken_dense_.size() &&
               taken_dense_[static_cast<std::size_t>(capture_id)];
    return taken_.count(capture_id) != 0;
}

void AnnotationIds::Space::mark_taken(std::int32_t capture_id) {
    if (capture_id > 0 && capture_id < kDense) {
        if (taken_dense_.size() <= static_cast<std::size_t>(capture_id))
            taken_dense_.resize(static_cast<std::size_t>(capture_id) + 1, false);
        taken_dense_[static_cast<std::size_t>(capture_id)] = true;
    } else {
        taken_.insert(capture_id);
    }
}

std::int32_t AnnotationIds::Space::lowest_free() {
    while (taken(next_free_) && next_free_ < std::numeric_limits<std::int32_t>::max()) ++next_free_;
    return next_free_;
}

std::int32_t AnnotationIds::Space::assign(std::size_t source, std::int32_t id) {
    Translation& t = by_source_[source];
    if (id < 0 || id >= kDense) {
        if (auto it = t.sparse.find(id); it != t.sparse.end()) return it->second;
    }
    if (assigned_ >= max_ids_) {
        // Bounded memory: every further new id shares one.
        if (overflow_id_ == 0) {
            overflow_id_ = lowest_free();
            mark_taken(overflow_id_);
        }
        t.identity = t.identity && overflow_id_ == id;
        return overflow_id_;
    }
    ++assigned_;
    // The source's own number when no other source has it, else the lowest free one.
    const std::int32_t capture_id = taken(id) ? lowest_free() : id;
    mark_taken(capture_id);
    t.identity = t.identity && capture_id == id;
    if (id > 0 && id < kDense) {
        if (t.dense.size() <= static_cast<std::size_t>(id))
            t.dense.resize(static_cast<std::size_t>(id) + 1, 0);
        t.dense[static_cast<std::size_t>(id)] = capture_id;
    } else {
        t.sparse[id] = capture_id;
    }
    return capture_id;
}

void AnnotationIds::remap(std::size_t source, std::vector<model::Event>& events) {
    for (model::Event& e : events) {
        if (auto* run = std::get_if<model::SpanRun>(&e)) {
            // A run's channels were named (ChannelName, translated here in this batch or an
            // earlier one) before it used them (the XRay mapper's way, the one maker of runs):
            // while the source kept all its numbers, its runs need no walk.
            if (channels_.identity(source)) continue;
            for (std::size_t i = run->first; i < run->items.size(); ++i) {
                std::int32_t& channel = run->items[i].channel;
                channel = channels_.capture_id(source, channel);
            }
            continue;
        }
        auto* a = std::get_if<model::Annotation>(&e);
        if (a == nullptr) continue;
        if (auto* s = std::get_if<model::StringAnnotation>(&a->body)) {
            s->channel = channels_.capture_id(source, s->channel);
        } else if (auto* g = std::get_if<model::GroupName>(&a->body)) {
            g->group = groups_.capture_id(source, g->group);
        } else if (auto* c = std::get_if<model::ChannelName>(&a->body)) {
            c->channel = channels_.capture_id(source, c->channel);
            c->group = groups_.capture_id(source, c->group);
        }
    }
}

}  // namespace apcgate::daemon
