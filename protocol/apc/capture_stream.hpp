// Splits the local-capture APC data file (the `0000000000` of an .apc folder; gator-protocol-
// v6.8.txt, "Local Capture": repeated [int32 LE length][body]) into frame bodies, and decodes a
// whole file in one call.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "protocol/apc/decoder.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::apc {

// Frames larger than this are taken as corruption, not data (gatord's frames are far smaller).
inline constexpr std::uint32_t kMaxCaptureFrameBytes = 64u * 1024 * 1024;

struct RawFrame {
    std::uint64_t offset = 0;            // of the length prefix
    std::uint64_t body_offset = 0;       // of body[0]
    std::span<const std::uint8_t> body;  // points into the splitter's input
};

// How a split ended: Clean (every byte belonged to a whole frame), Truncated (the last length
// prefix or body stops early: a capture cut short) or Corrupt (a length < 0 or > 64 MiB).
enum class StreamEnd { Clean, Truncated, Corrupt };
const char* to_string(StreamEnd e);

class CaptureSplitter {
  public:
    // `base_offset` is the offset of data[0] in the file (for reading a file in pieces).
    explicit CaptureSplitter(std::span<const std::uint8_t> data, std::uint64_t base_offset = 0);

    // The next frame; nullopt at the end of the data or at the first problem (see end()).
    std::optional<RawFrame> next();
    // Clean until a problem is met; error() then says where (the offset of the bad prefix).
    [[nodiscard]] StreamEnd end() const { return end_; }
    [[nodiscard]] const std::optional<Error>& error() const { return error_; }
    // Bytes consumed by the frames returned so far.
    [[nodiscard]] std::size_t consumed() const { return pos_; }

  private:
    std::span<const std::uint8_t> data_;
    std::uint64_t base_;
    std::size_t pos_ = 0;
    StreamEnd end_ = StreamEnd::Clean;
    std::optional<Error> error_;
};

struct DecodedCapture {
    std::vector<DecodedFrame> frames;  // every frame before the first problem
    StreamEnd end = StreamEnd::Clean;  // how the split ended
    std::optional<Error> error;        // the split problem or the first frame that failed
};

// Splits and decodes a whole capture file; stops at the first split or decode problem.
DecodedCapture decode_capture(std::span<const std::uint8_t> data, std::uint64_t base_offset = 0);

}  // namespace apcgate::apc
