// The reading half of `apcgate report` on a v6.8 ("Gator") capture: splits the data file into
// frames and reads Annotate frames in place (annotate_scan.hpp), handing the result over in
// batches of items in file order. With more than one usable CPU the reading runs on a thread of
// its own, so decoding the packed integers of millions of annotations overlaps with the span
// statistics the caller's thread keeps (as `convert` decodes beside its encoder); on one CPU
// the batches are read on the caller's thread, since handing them over would cost more than it
// gives.
//
// Items point into the data, so the caller may release the data's pages (madvise) only behind
// the batches it has finished (FrameBatch::consumed). A few batches are in flight at most, so
// memory stays bounded whatever the capture's size.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "protocol/apc/capture_stream.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::daemon::analysis {

struct FrameItem {
    enum class Kind : std::uint8_t {
        String,   // an Annotate message that is exactly one uncoloured string annotation
        Message,  // any other Annotate message
        Frame,    // any other frame, or an Annotate frame that does not scan (decode it)
    };
    Kind kind = Kind::Frame;
    std::int32_t core = 0;     // Annotate messages
    std::int32_t tid = 0;      // Annotate messages
    std::int32_t channel = 0;  // String
    std::int64_t ts = 0;       // Annotate messages
    std::uint64_t offset = 0;  // of the message in the file, or of the frame body's first byte
    std::span<const std::uint8_t> bytes;  // the message's annotation bytes, or the frame body

    // String: the annotation's text (after its 8-byte header).
    [[nodiscard]] std::string_view text() const {
        return {reinterpret_cast<const char*>(bytes.data()) + 8,  // NOLINT: bytes as text
                bytes.size() - 8};
    }
};

struct FrameBatch {
    // The first `size` are this batch's; the vector keeps its length between batches, so that
    // adding an item is a store, not a vector's growth check.
    std::vector<FrameItem> items;
    std::size_t size = 0;
    // Bytes at the start of the data that no item of this batch or of a later one points into.
    std::size_t consumed = 0;

    [[nodiscard]] std::span<const FrameItem> used() const { return {items.data(), size}; }
};

struct FrameSplitEnd {
    apc::StreamEnd end = apc::StreamEnd::Clean;
    std::optional<Error> error;  // CaptureSplitter's: where the frames stopped making sense
};

// Calls `consume` with every batch, in file order, on the caller's thread; `consume` returns
// false to stop (the rest is not read). `threaded`: read on a thread of its own.
FrameSplitEnd read_frame_batches(std::span<const std::uint8_t> data, bool threaded,
                                 const std::function<bool(const FrameBatch&)>& consume);

}  // namespace apcgate::daemon::analysis
