// Annotation texts written by the decoding thread into one buffer per chunk and copied into
// their events by the polling thread. An event's text is a std::string of its own (the model's
// StringAnnotation), so each costs an allocation; made on the decoding thread, it would be freed
// on the other one, after encoding, where glibc's allocator makes both ends slow. Deferred, the
// allocation, the copy and the free all happen on the polling thread, which has less to do: the
// decoding thread (libbabeltrace2 and the mapping) is what bounds a conversion's time.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::ctf {

class DeferredTexts {
  public:
    struct Slice {
        std::size_t event = 0;
        std::size_t offset = 0;
        std::size_t length = 0;
    };

    // The buffer the text of event number `event` (of the chunk's events) is appended to;
    // end() after it is written.
    std::string& begin(std::size_t event) {
        open_ = Slice{event, bytes_.size(), 0};
        return bytes_;
    }
    void end() {
        open_.length = bytes_.size() - open_.offset;
        slices_.push_back(open_);
    }
    // Sets the text of every string annotation written through begin()/end().
    void apply(std::vector<model::Event>& events) const;
    void clear() {
        bytes_.clear();
        slices_.clear();
    }
    void reserve(std::size_t bytes) { bytes_.reserve(bytes); }
    [[nodiscard]] std::size_t size() const { return bytes_.size(); }

    // For the worker's frames (worker_frames.hpp): the buffer and its slices as they are.
    [[nodiscard]] const std::string& bytes() const { return bytes_; }
    [[nodiscard]] const std::vector<Slice>& slices() const { return slices_; }
    std::string& mutable_bytes() { return bytes_; }
    void add_slice(const Slice& s) { slices_.push_back(s); }

  private:
    std::string bytes_;
    std::vector<Slice> slices_;
    Slice open_;
};

}  // namespace apcgate::collectors::ctf
