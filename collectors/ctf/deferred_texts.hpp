// Annotation texts written by the worker into one buffer per chunk (and sent so, in the chunk's
// frame) instead of one std::string per event: the model's StringAnnotation holds its text in a
// std::string of its own, an allocation each, and the worker's time is what bounds a
// conversion. The frame encoder writes each text in its event's place; the parent reads
// stretches of them straight into span runs (worker_frames.hpp), so it does not allocate, copy
// and free a string per annotation either. The mappers write at most one text per event, in
// event order (the encoder walks the slices along with the events).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

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
    void clear() {
        bytes_.clear();
        slices_.clear();
    }
    void reserve(std::size_t bytes) { bytes_.reserve(bytes); }
    [[nodiscard]] std::size_t size() const { return bytes_.size(); }

    // For the worker's frames (worker_frames.hpp): the buffer and its slices as they are.
    [[nodiscard]] const std::string& bytes() const { return bytes_; }
    [[nodiscard]] const std::vector<Slice>& slices() const { return slices_; }

  private:
    std::string bytes_;
    std::vector<Slice> slices_;
    Slice open_;
};

}  // namespace apcgate::collectors::ctf
