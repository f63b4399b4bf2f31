// The reading half of `apcgate report` on a v6.8 ("Gator") capture: reads the data file in
// chunks of whole frames, splits them and reads Annotate frames in place (annotate_scan.hpp),
// handing the result over in batches of items in file order. With more than one usable CPU the
// reading runs on a thread of its own, so decoding the packed integers of millions of
// annotations overlaps with the span statistics the caller's thread keeps (as `convert` decodes
// beside its encoder); on one CPU the batches are read on the caller's thread, since handing
// them over would cost more than it gives.
//
// The file is read with read() into a few reused buffers rather than mapped: faulting in the
// pages of a mapping, a few at a time, cost the reading thread more than the copy does
// (docs/performance.md). Items point into their batch's chunk, which the batch keeps alive; a
// few batches are in flight at most, so memory stays bounded whatever the capture's size.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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

// Bytes of the data file read in one go: whole frames, and the start of the next one.
struct FrameChunk {
    std::unique_ptr<std::uint8_t[]> bytes;  // NOLINT(*-avoid-c-arrays): not zeroed when made
    std::size_t capacity = 0;
    std::size_t size = 0;
};

struct FrameBatch {
    // The first `size` are this batch's; the vector keeps its length between batches, so that
    // adding an item is a store, not a vector's growth check.
    std::vector<FrameItem> items;
    std::size_t size = 0;
    // What the items point into.
    std::shared_ptr<FrameChunk> chunk;

    [[nodiscard]] std::span<const FrameItem> used() const { return {items.data(), size}; }
};

// Reads up to `into.size()` bytes of the data file at its current position: how many were
// read, 0 at its end.
using ReadBytes = std::function<Result<std::size_t>(std::span<std::uint8_t> into)>;

struct FrameSplitEnd {
    apc::StreamEnd end = apc::StreamEnd::Clean;
    std::optional<Error> error;  // CaptureSplitter's: where the frames stopped making sense
};

// Bytes read at once: many frames of the usual size (a chunk grows to hold a larger one), few
// enough that the chunks of the batches in flight stay a few megabytes.
inline constexpr std::size_t kFrameChunkBytes = std::size_t{1} << 20;

// Calls `consume` with every batch of the data `read` reads, in file order, on the caller's
// thread; `consume` returns false to stop (the rest is not read). `threaded`: read on a thread
// of its own. A read error ends the frames as corrupt data does, with the error. `chunk_bytes`:
// for tests, which read frames across many chunks' boundaries.
FrameSplitEnd read_frame_batches(const ReadBytes& read, bool threaded,
                                 const std::function<bool(const FrameBatch&)>& consume,
                                 std::size_t chunk_bytes = kFrameChunkBytes);

}  // namespace apcgate::daemon::analysis
