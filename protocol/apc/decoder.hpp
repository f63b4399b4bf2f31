// Decodes APC frame bodies (gator-protocol-v6.8.txt, "APC Frame Format") into typed messages,
// each with its byte offset in the input, for `apcgate inspect` and the end-to-end tests.
// Messages reuse the model event structs where the wire carries the same fields; fields the
// wire lacks (timestamps of names, comms and external data) are left 0.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "protocol/apc/encoder.hpp"
#include "protocol/model/event.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::apc {

// Summary frame, Summary message (code 1).
struct SummaryMessage {
    std::string canary;
    std::int64_t wallclock_ns = 0;
    std::int64_t uptime_ns = 0;
    std::int64_t monotonic_delta_ns = 0;
    std::vector<std::pair<std::string, std::string>> attributes;
};

// Backtrace frame message; `end_of_message` is false when the frame ended before the End of
// Message marker (a rule violation the checker reports, not a decode error).
struct BacktraceMessage {
    model::Backtrace backtrace;  // core is the frame's
    bool end_of_message = true;
};

// One Block Counter (key, value) pair as on the wire: key 0 timestamp, 1 pid, 2 core, else a
// counter key.
struct BlockEntry {
    std::int32_t key = 0;
    std::int64_t value = 0;
};

// Annotate message: one fragment of userspace annotation bytes (see annotation_bytes.hpp).
struct AnnotateMessage {
    std::int32_t core = 0;
    std::int32_t tid = 0;
    model::Nanos ts = 0;
    std::vector<std::uint8_t> bytes;
};

// External disconnect frame ([-1][id]); `trailing_bytes` counts anything after the id (a rule
// violation the checker reports).
struct DisconnectMessage {
    std::int32_t id = 0;
    std::size_t trailing_bytes = 0;
};

using MessageBody =
    std::variant<SummaryMessage, model::CoreName, model::CookieName, model::ThreadName,
                 model::ProcComm, BacktraceMessage, model::CounterSample, BlockEntry,
                 AnnotateMessage, model::SchedSwitch, model::SchedThreadExit, model::ActivityLink,
                 model::ActivitySwitch, model::TaskExit, model::Idle, model::ExternalData,
                 DisconnectMessage>;

struct DecodedMessage {
    std::uint64_t offset = 0;  // of the message's first byte in the input
    MessageBody body;
};

struct DecodedFrame {
    std::uint64_t offset = 0;  // of the frame body's first byte (after any length prefix)
    std::size_t size = 0;      // body bytes
    FrameType type = FrameType::Summary;
    std::int32_t core = 0;  // header core; 0 for frames without one (see frame_has_core)
    std::vector<DecodedMessage> messages;
};

// Decodes one frame body (code, optional core, messages; no length prefix). `file_offset` is
// the offset of body[0] in the input and is added to every reported offset. Errors name the
// offset, the frame or message kind and the field.
Result<DecodedFrame> decode_frame(std::span<const std::uint8_t> body, std::uint64_t file_offset);

// Rebuilds model events from decoded frames, in stream order: Counter and Block Counter values
// become CounterSamples (pid -1 when none), Annotate fragments are joined per tid and parsed
// (an annotation's ts/core are those of its first fragment), and each External frame becomes
// one ExternalData (a source's bytes split or joined differently than they were added).
// Summary messages produce no event. Fails on a Block Counter value before any timestamp or
// bytes that cannot start an annotation.
class EventRebuilder {
  public:
    Status add(const DecodedFrame& frame);
    // Annotation bytes still waiting for the rest of their annotation, over all tids.
    [[nodiscard]] std::size_t pending_annotation_bytes() const;
    std::vector<model::Event>& events() { return events_; }

  private:
    struct Pending {
        std::int32_t tid = 0;
        std::int32_t core = 0;
        model::Nanos ts = 0;
        std::uint64_t offset = 0;
        std::vector<std::uint8_t> bytes;
    };
    Status add_annotation(std::uint64_t offset, const AnnotateMessage& m);

    std::vector<model::Event> events_;
    std::vector<Pending> pending_;  // per tid, few at a time
};

Result<std::vector<model::Event>> rebuild_events(std::span<const DecodedFrame> frames);

}  // namespace apcgate::apc
