#include "collectors/fxt/koid_map.hpp"

namespace apcgate::collectors::fxt {

void KoidMap::note(std::uint64_t koid) {
    // Fresh ids are handed out from the top down, so only fitting koids up there can collide;
    // the compare keeps noting cheap for the usual small koids.
    if (koid >= kNoteFrom && fits(koid)) direct_.insert(static_cast<std::int32_t>(koid));
}

std::int32_t KoidMap::remap(std::uint64_t koid) {
    auto it = large_.find(koid);
    if (it != large_.end()) return it->second;
    while (next_ >= kNoteFrom && direct_.count(next_) != 0) --next_;
    // Below kNoteFrom fitting koids are not noted: more than 2^30 large koids cannot occur in
    // an input of sane size, so wrap onto 1 rather than fail.
    const std::int32_t fresh = next_ >= kNoteFrom ? next_-- : 1;
    large_.emplace(koid, fresh);
    return fresh;
}

}  // namespace apcgate::collectors::fxt
