// Reads the local-capture APC data file (gator-protocol-v6.8.txt, "Local Capture"):
//   { length:int32 LE  body[length] }*     body = one frame (see decoder.cpp)
#include "protocol/apc/capture_stream.hpp"

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::apc {

const char* to_string(StreamEnd e) {
    switch (e) {
        case StreamEnd::Clean:
            return "clean";
        case StreamEnd::Truncated:
            return "truncated";
        case StreamEnd::Corrupt:
            return "corrupt";
    }
    return "?";
}

CaptureSplitter::CaptureSplitter(std::span<const std::uint8_t> data, std::uint64_t base_offset)
    : data_(data), base_(base_offset) {}

std::optional<RawFrame> CaptureSplitter::next() {
    if (end_ != StreamEnd::Clean || pos_ >= data_.size()) return std::nullopt;
    wire::ByteReader r(data_, wire::Endian::Little, base_);
    r.seek(pos_);
    r.set_record("APC frame");
    const std::uint64_t at = r.offset();
    const std::int32_t len = r.i32("length");
    if (r.ok() && (len < 0 || static_cast<std::uint32_t>(len) > kMaxCaptureFrameBytes)) {
        r.seek(pos_);
        r.fail("frame length " + std::to_string(len) + " is negative or over 64 MiB", "length");
        end_ = StreamEnd::Corrupt;
        error_ = r.take_error();
        return std::nullopt;
    }
    const auto body = r.bytes(static_cast<std::size_t>(len), "body");
    if (!r.ok()) {
        end_ = StreamEnd::Truncated;
        error_ = r.take_error().while_("reading the last frame (capture cut short)");
        return std::nullopt;
    }
    pos_ = r.pos();
    return RawFrame{at, at + 4, body};
}

DecodedCapture decode_capture(std::span<const std::uint8_t> data, std::uint64_t base_offset) {
    DecodedCapture out;
    CaptureSplitter split(data, base_offset);
    while (auto raw = split.next()) {
        auto frame = decode_frame(raw->body, raw->body_offset);
        if (!frame.ok()) {
            out.error = std::move(frame).take_error();
            return out;
        }
        out.frames.push_back(std::move(frame).value());
    }
    out.end = split.end();
    out.error = split.error();
    return out;
}

}  // namespace apcgate::apc
