#include "collectors/fxt/archive_reader.hpp"

#include <algorithm>
#include <cstdint>

namespace apcgate::collectors::fxt {

ArchiveReader::ArchiveReader(std::span<const std::uint8_t> data, const ArchiveIndex& index,
                             KoidMap& koids, ingest::IngestReport& report, Limits limits)
    : buffer_(limits.buffer_capacity),
      builder_(index, koids, report, limits.max_items),
      report_(report),
      limits_(limits) {
    const model::Nanos untimed = index.origin_ns == kNever ? 0 : index.origin_ns;
    streams_.reserve(index.providers.size());
    for (const auto& p : index.providers) streams_.emplace_back(data, index.endian, p, untimed);
    for (std::size_t i = 0; i < streams_.size(); ++i)
        if (!streams_[i].done()) ready_.emplace(streams_[i].bound(), i);
}

ArchiveReader::Chunk ArchiveReader::read(std::vector<Item>& out) {
    const std::size_t max_out = out.size() + limits_.max_items;
    std::size_t bytes = 0;
    while (!ready_.empty() && out.size() < max_out && bytes < limits_.max_bytes) {
        const std::size_t i = ready_.top().second;
        ready_.pop();
        ProviderStream& s = streams_[i];
        // The stream is read on while it would be the next out of the queue anyway (with one
        // provider, always): it goes back in only when another stream's turn comes.
        for (;;) {
            // The record's items are built in `out`, where they stay unless they must wait.
            const std::size_t first = out.size();
            bytes += s.step(builder_, report_, out);
            const model::Nanos bound = s.bound();  // kNever once done
            const Ready next = ready_.empty() ? Ready{kNever, SIZE_MAX} : ready_.top();
            // Nothing any stream has yet to read can be earlier than the lowest bound.
            buffer_.take_appended(out, first, std::min(bound, next.first), max_out, report_);
            const bool first_again = !s.done() && Ready{bound, i} < next;
            if (!first_again || out.size() >= max_out || bytes >= limits_.max_bytes) {
                if (!s.done()) ready_.emplace(bound, i);
                break;
            }
        }
    }
    if (ready_.empty()) buffer_.release(kNever, out, max_out);
    bytes_read_ += bytes;
    builder_.flush_counts();

    Chunk c;
    c.finished = ready_.empty() && buffer_.empty();
    const model::Nanos unread = ready_.empty() ? kNever : ready_.top().first;
    c.watermark = std::max(buffer_.floor(), std::min(unread, buffer_.earliest()));
    return c;
}

std::size_t ArchiveReader::read_past() const {
    std::size_t low = SIZE_MAX;
    for (const auto& s : streams_) low = std::min(low, s.position());
    return low;
}

}  // namespace apcgate::collectors::fxt
