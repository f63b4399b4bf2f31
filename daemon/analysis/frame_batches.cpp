#include "daemon/analysis/frame_batches.hpp"

#include <thread>
#include <utility>

#include "collectors/ingest/bounded_queue.hpp"
#include "protocol/apc/annotate_scan.hpp"

namespace apcgate::daemon::analysis {

namespace {

// Large enough that handing a batch over is rare next to reading it, small enough that the
// batches in flight stay a few megabytes.
constexpr std::size_t kBatchItems = 8192;
constexpr std::size_t kBatchesInFlight = 4;

// Splits the data and fills batches, passing each full one to `emit` (false: stop reading).
class FrameReader {
  public:
    FrameReader(std::span<const std::uint8_t> data, std::function<bool(FrameBatch&)> emit)
        : splitter_(data), emit_(std::move(emit)) {}

    void run() {
        while (!stopped_) {
            const std::size_t frame_start = splitter_.consumed();
            auto raw = splitter_.next();
            if (!raw) break;
            frame_start_ = frame_start;
            if (apc::frame_type_of(raw->body) == apc::FrameType::Annotate) {
                const bool scanned = apc::scan_annotate_frame(
                    raw->body, raw->body_offset, [&](const apc::AnnotateView& v) { message(v); });
                if (stopped_) break;
                if (scanned) {
                    finish_frame();
                    continue;
                }
                // The messages before the problem are in; the consumer decodes the frame
                // again to say where and why it does not decode.
            }
            FrameItem f;
            f.kind = FrameItem::Kind::Frame;
            f.offset = raw->body_offset;
            f.bytes = raw->body;
            add(f);
            finish_frame();
        }
        if (!stopped_ && batch_.size > 0) {
            batch_.consumed = splitter_.consumed();
            flush();
        }
    }
    [[nodiscard]] FrameSplitEnd split_end() const { return {splitter_.end(), splitter_.error()}; }

  private:
    void message(const apc::AnnotateView& v) {
        if (stopped_) return;
        FrameItem m;
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
        }
        add(m);
        // A frame of many messages is handed over in parts: the items still to come lie behind
        // the frame's start.
        if (batch_.size == kBatchItems) {
            batch_.consumed = frame_start_;
            flush();
        }
    }
    void add(const FrameItem& item) {
        if (batch_.items.size() < kBatchItems) batch_.items.resize(kBatchItems);
        batch_.items[batch_.size++] = item;
    }
    void finish_frame() {
        if (batch_.size == kBatchItems) {
            batch_.consumed = splitter_.consumed();
            flush();
        }
    }
    void flush() {
        if (!emit_(batch_)) stopped_ = true;
        batch_.size = 0;
    }

    apc::CaptureSplitter splitter_;
    std::function<bool(FrameBatch&)> emit_;
    FrameBatch batch_;
    std::size_t frame_start_ = 0;
    bool stopped_ = false;
};

}  // namespace

FrameSplitEnd read_frame_batches(std::span<const std::uint8_t> data, bool threaded,
                                 const std::function<bool(const FrameBatch&)>& consume) {
    if (!threaded) {
        FrameReader reader(data, [&](FrameBatch& b) { return consume(b); });
        reader.run();
        return reader.split_end();
    }
    // Full batches go one way, emptied ones come back to be filled again.
    collectors::ingest::BoundedQueue<FrameBatch> full(kBatchesInFlight);
    collectors::ingest::BoundedQueue<FrameBatch> empty(kBatchesInFlight + 1);
    FrameSplitEnd split_end;
    std::thread thread([&] {
        FrameReader reader(data, [&](FrameBatch& b) {
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
