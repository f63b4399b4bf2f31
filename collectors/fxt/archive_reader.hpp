// The second pass: reads every provider as its own stream and merges them in time order. It
// always advances the stream with the lowest bound, releases the buffered items no stream can
// undercut any more, and stops after a bounded chunk (items out or input bytes in), so a poll
// costs bounded time and memory whatever the archive's size.
#pragma once

#include <functional>
#include <queue>
#include <span>
#include <utility>
#include <vector>

#include "collectors/fxt/archive_index.hpp"
#include "collectors/fxt/item_builder.hpp"
#include "collectors/fxt/order_buffer.hpp"
#include "collectors/fxt/provider_stream.hpp"

namespace apcgate::collectors::fxt {

class ArchiveReader {
  public:
    struct Limits {
        std::size_t max_items = 16384;
        std::size_t max_bytes = std::size_t{1} << 20;
        std::size_t buffer_capacity = OrderBuffer::kDefaultCapacity;
    };
    struct Chunk {
        model::Nanos watermark = 0;  // every later item has ts >= watermark (absolute ns)
        bool finished = false;       // every item has been handed out
    };

    // `index` and `koids` must outlive the reader; `koids` starts as a copy of index.koids.
    ArchiveReader(std::span<const std::uint8_t> data, const ArchiveIndex& index, KoidMap& koids,
                  ingest::IngestReport& report, Limits limits);
    ArchiveReader(std::span<const std::uint8_t> data, const ArchiveIndex& index, KoidMap& koids,
                  ingest::IngestReport& report)
        : ArchiveReader(data, index, koids, report, Limits{}) {}

    // Appends the next items in time order to `out`.
    Chunk read(std::vector<Item>& out);
    // Gives the texts of items read before, which the caller is done with, back to be written
    // into again, and clears `items`. The reader keeps at most Limits::max_items of them.
    void recycle(std::vector<Item>& items) { builder_.recycle(items); }
    [[nodiscard]] const TextPool& texts() const { return builder_.texts(); }

    [[nodiscard]] std::uint64_t bytes_read() const { return bytes_read_; }
    // Every input byte before this offset has been read for the last time (each provider reads
    // its sections in file order, so nothing below the lowest stream's position is read again).
    [[nodiscard]] std::size_t read_past() const;

  private:
    using Ready = std::pair<model::Nanos, std::size_t>;  // (bound, stream)

    std::vector<ProviderStream> streams_;
    std::priority_queue<Ready, std::vector<Ready>, std::greater<>> ready_;
    OrderBuffer buffer_;
    ItemBuilder builder_;
    ingest::IngestReport& report_;
    Limits limits_;
    std::uint64_t bytes_read_ = 0;
};

}  // namespace apcgate::collectors::fxt
