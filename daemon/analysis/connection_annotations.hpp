// Application annotations as a live capture carries them: the bytes of each connection of Arm's
// annotation library, forwarded unchanged in External frames (one id per connection until its
// disconnect frame; ids are reused after it). Each connection's stream is tokenized and parsed
// with the annotation collector's own reader (collectors/annotate): string messages open and
// close spans on the connection's channels, markers are counted. Times are the library's
// CLOCK_MONOTONIC_RAW, placed on the capture's timeline by the Summary's monotonic delta (its
// zero on that clock), so spans still open at the end close at the capture's end. A stream that
// breaks the protocol is counted as a loss and the rest of that connection is skipped; one that
// does not begin with the handshake at all is another kind of stream, noted and skipped.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>

#include "collectors/annotate/stream_tokenizer.hpp"
#include "daemon/analysis/report.hpp"
#include "daemon/analysis/span_statistics.hpp"

namespace apcgate::daemon::analysis {

class ConnectionAnnotations {
  public:
    static constexpr std::size_t kMaxConnections = 65536;

    explicit ConnectionAnnotations(SpanStatistics& spans) : spans_(spans) {}

    // CLOCK_MONOTONIC_RAW at the capture's zero (the Summary message's monotonic delta).
    void clock_zero(std::int64_t monotonic_raw_ns) { zero_ = monotonic_raw_ns; }
    void data(std::int32_t id, std::span<const std::uint8_t> bytes);
    void disconnect(std::int32_t id);
    void fill(Report& r) const;
    [[nodiscard]] std::uint64_t messages() const { return messages_; }

  private:
    struct Connection {
        collectors::annotate::StreamTokenizer tokens;
        std::int32_t serial = 0;  // unique over the capture, unlike the id
        bool failed = false;
    };

    SpanStatistics& spans_;
    std::map<std::int32_t, std::unique_ptr<Connection>> open_;
    std::int32_t next_serial_ = 0;
    std::int64_t zero_ = 0;
    std::uint64_t messages_ = 0;
    std::uint64_t broken_ = 0;        // connections whose stream broke the protocol
    std::uint64_t foreign_ = 0;       // streams that are not the annotation protocol
    std::uint64_t not_followed_ = 0;  // bytes of connections past kMaxConnections
};

}  // namespace apcgate::daemon::analysis
