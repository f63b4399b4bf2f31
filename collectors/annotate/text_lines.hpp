// Splits the text form (one annotation per line, written by shell scripts to the daemon's FIFO
// or text socket) into lines, incrementally. No I/O.
//
// Record grammar (gator-protocol-v6.8.txt, "ASCII String Annotation"):
//   line := [0x1B r g b] text '\n'
// Byte layout: an optional colour (ESC and three raw RGB bytes, any values, '\n' included),
// then the text up to the first '\n'. A trailing '\r' is dropped (files edited on Windows). Text
// beyond max_text_bytes is cut and the rest of the line skipped. A line whose text starts with
// 0x1C (no colour) is not text: in an Annotate message it would read as a binary annotation, so
// it is reported, not forwarded. A stream that ends without '\n' ends its last line (finish()).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::annotate {

inline constexpr std::size_t kDefaultMaxTextBytes = 4096;

struct TextLine {
    std::optional<model::Rgb> colour;
    std::string text;
    std::uint64_t offset = 0;  // of the line's first byte in the stream
    bool truncated = false;    // text cut at max_text_bytes
    bool binary = false;       // starts with 0x1C: must not be forwarded
};

class TextLineTokenizer {
  public:
    explicit TextLineTokenizer(std::size_t max_text_bytes = kDefaultMaxTextBytes)
        : max_text_(max_text_bytes) {}

    // Consumes bytes from the front of `in`; returns the next whole line, or nullopt when `in`
    // ran out first.
    std::optional<TextLine> next(std::span<const std::uint8_t>& in);
    // The stream ended: the last line if it had no '\n' (nullopt if nothing was pending).
    std::optional<TextLine> finish();

    [[nodiscard]] std::uint64_t offset() const { return offset_; }

  private:
    enum class State { LineStart, Colour, Text };

    TextLine take();

    std::size_t max_text_;
    State state_ = State::LineStart;
    TextLine line_;
    std::uint8_t colour_[3] = {};
    std::size_t colour_got_ = 0;
    bool pending_ = false;  // some byte of the current line was seen
    std::uint64_t offset_ = 0;
};

}  // namespace apcgate::collectors::annotate
