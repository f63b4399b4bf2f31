#include "daemon/analysis/frame_batches.hpp"

#include <algorithm>
#include <cstring>
#include <thread>
#include <utility>

#include "collectors/ingest/bounded_queue.hpp"
#include "protocol/apc/annotate_scan.hpp"
#include "protocol/wire/fixed_load.hpp"

namespace apcgate::daemon::analysis {

namespace {

// Large enough that handing a batch over is rare next to reading it, small enough that the
// batches in flight stay a few megabytes.
constexpr std::size_t kBatchItems = 8192;
constexpr std::size_t kBatchesInFlight = 4;
constexpr std::size_t kSpareChunks = 2;

// Reads the data in chunks, splits them into frames and fills batches, passing each full one to
// `emit` (false: stop reading).
class FrameReader {
  public:
    FrameReader(const ReadBytes& read, std::size_t chunk_bytes,
                std::function<bool(FrameBatch&)> emit)
        : read_(read), chunk_bytes_(chunk_bytes), emit_(std::move(emit)) {}

    void run() {
        while (!stopped_ && read_chunk()) {
            apc::CaptureSplitter splitter({chunk_->bytes.get(), chunk_->size}, chunk_offset_);
            split(splitter);
            if (stopped_) break;
            if (batch_.size > 0) flush();  // a batch's items point into one chunk
            if (splitter.end() == apc::StreamEnd::Truncated && !at_end_) {
                carried_ = splitter.consumed();  // the next frame goes on in the next chunk
                continue;
            }
            carried_ = chunk_->size;
            if (splitter.end() != apc::StreamEnd::Clean) {
                end_ = {splitter.end(), splitter.error()};
                break;
            }
        }
    }
    [[nodiscard]] const FrameSplitEnd& split_end() const { return end_; }

  private:
    // The frames of the current chunk into batches.
    void split(apc::CaptureSplitter& splitter) {
        while (!stopped_) {
            auto raw = splitter.next();
            if (!raw) break;
            if (apc::frame_type_of(raw->body) == apc::FrameType::Annotate) {
                const bool scanned = apc::scan_annotate_frame(
                    raw->body, raw->body_offset,
                    [&](const apc::AnnotateView& v) __attribute__((always_inline)) { message(v); });
                if (stopped_) break;
                if (scanned) continue;
                // The messages before the problem are in; the consumer decodes the frame
                // again to say where and why it does not decode.
            }
            FrameItem f;
            f.kind = FrameItem::Kind::Frame;
            f.offset = raw->body_offset;
            f.bytes = raw->body;
            add(f);
        }
    }

    // The next chunk: what the last one left of a frame, then as much as fits. False at the
    // end of the data (or at a read error: end_ says so).
    bool read_chunk() {
        std::size_t left = 0;
        std::size_t need = chunk_bytes_;
        if (chunk_) {
            left = chunk_->size - carried_;
            // A frame longer than a chunk: room for all of it (its length has been checked).
            if (left >= 4) {
                const std::uint8_t* p = chunk_->bytes.get() + carried_;
                const std::uint32_t length = wire::load_u32(p, wire::Endian::Little);
                need = std::max<std::size_t>(need, std::size_t{4} + length);
            }
        }
        std::shared_ptr<FrameChunk> next = spare_chunk(need);
        if (left > 0) std::memcpy(next->bytes.get(), chunk_->bytes.get() + carried_, left);
        next->size = left;
        if (chunk_ && chunk_.use_count() == 1 && spare_.size() < kSpareChunks)
            spare_.push_back(std::move(chunk_));  // no batch points into it (one thread)
        chunk_offset_ += carried_;
        chunk_ = std::move(next);
        while (!at_end_ && chunk_->size < chunk_->capacity) {
            auto n = read_({chunk_->bytes.get() + chunk_->size, chunk_->capacity - chunk_->size});
            if (!n) {
                end_ = {apc::StreamEnd::Corrupt, std::move(n).take_error()};
                return false;
            }
            if (*n == 0) at_end_ = true;
            chunk_->size += *n;
        }
        return chunk_->size > 0;
    }

    // A chunk of at least `capacity` bytes that no batch points into: a spare one when there is.
    std::shared_ptr<FrameChunk> spare_chunk(std::size_t capacity) {
        while (!spare_.empty()) {
            std::shared_ptr<FrameChunk> c = std::move(spare_.back());
            spare_.pop_back();
            if (c->capacity >= capacity) return c;
        }
        auto c = std::make_shared<FrameChunk>();
        c->bytes.reset(new std::uint8_t[capacity]);  // NOLINT(*-owning-memory): not zeroed
        c->capacity = capacity;
        return c;
    }

    // Inlined into the scan, so the view's fields stay in registers: read back from the stack
    // in wider loads than they were stored with, they stalled the reading once per message.
    [[gnu::always_inline]] void message(const apc::AnnotateView& v) {
        if (stopped_) return;
        // Filled in place: an item built aside and copied in was read back before its fields'
        // stores had landed, a stall per message.
        FrameItem& m = next_item();
        m.core = v.core;
        m.tid = v.tid;
        m.ts = v.ts;
        m.offset = v.offset;
        m.bytes = v.bytes;
        if (auto s = apc::whole_string_annotation(v.bytes)) {
            m.kind = FrameItem::Kind::String;
            m.channel = s->channel;
        } else {
            m.kind = FrameItem::Kind::Message;
            m.channel = 0;
        }
        // A frame of many messages is handed over in parts.
        if (batch_.size == kBatchItems) flush();
    }
    FrameItem& next_item() {
        if (batch_.items.size() < kBatchItems) batch_.items.resize(kBatchItems);
        return batch_.items[batch_.size++];
    }
    void add(const FrameItem& item) {
        next_item() = item;
        if (batch_.size == kBatchItems) flush();
    }
    void flush() {
        batch_.chunk = chunk_;
        if (!emit_(batch_)) stopped_ = true;
        batch_.size = 0;
        // The batch handed back: its chunk is spare once no other batch points into it.
        if (batch_.chunk && batch_.chunk != chunk_ && batch_.chunk.use_count() == 1 &&
            spare_.size() < kSpareChunks) {
            spare_.push_back(std::move(batch_.chunk));
        }
        batch_.chunk.reset();
    }

    const ReadBytes& read_;
    std::size_t chunk_bytes_;
    std::function<bool(FrameBatch&)> emit_;
    FrameBatch batch_;
    std::shared_ptr<FrameChunk> chunk_;
    std::vector<std::shared_ptr<FrameChunk>> spare_;
    std::uint64_t chunk_offset_ = 0;  // of the chunk's first byte in the file
    std::size_t carried_ = 0;         // bytes of the chunk read into frames
    bool at_end_ = false;
    FrameSplitEnd end_;
    bool stopped_ = false;
};

}  // namespace

FrameSplitEnd read_frame_batches(const ReadBytes& read, bool threaded,
                                 const std::function<bool(const FrameBatch&)>& consume,
                                 std::size_t chunk_bytes) {
    if (!threaded) {
        FrameReader reader(read, chunk_bytes, [&](FrameBatch& b) { return consume(b); });
        reader.run();
        return reader.split_end();
    }
    // Full batches go one way, emptied ones come back to be filled again.
    collectors::ingest::BoundedQueue<FrameBatch> full(kBatchesInFlight);
    // Room for every batch there can be (the reader makes one only when none comes back: at
    // most the full ones, the consumer's, the reader's two, and that one), so none is dropped to
    // be made again.
    collectors::ingest::BoundedQueue<FrameBatch> empty(kBatchesInFlight + 4);
    FrameSplitEnd split_end;
    std::thread thread([&] {
        FrameReader reader(read, chunk_bytes, [&](FrameBatch& b) {
            FrameBatch next;
            if (auto recycled = empty.try_pop()) next = std::move(*recycled);
            next.size = 0;
            std::swap(b, next);
            return full.push(std::move(next));
        });
        reader.run();
        split_end = reader.split_end();
        full.close();  // after split_end is set: the consumer reads it once the queue is drained
    });
    while (auto batch = full.pop()) {
        if (!consume(*batch)) break;
        empty.try_push(std::move(*batch));
    }
    full.close();  // a reader still reading stops at its next batch
    thread.join();
    return split_end;
}

}  // namespace apcgate::daemon::analysis
