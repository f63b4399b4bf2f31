// Decodes the body of one Perf-type frame (after the local capture's length prefix or the
// APC_DATA response header) into values. Only syntax is checked here: every field inside the
// frame, every message of a PERF_ATTRS frame, the PERF_DATA length equal to the bytes that
// follow. What the values must agree on across frames is capture_check's job.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "protocol/perf_framing/codes.hpp"
#include "protocol/perf_framing/perf_attr.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::perf_framing {

struct SummaryFrame {
    std::string canary;
    std::int64_t realtime_ns = 0, boottime_ns = 0, monotonic_raw_ns = 0, monotonic_ns = 0;
    std::vector<std::pair<std::string, std::string>> attributes;  // in frame order
    [[nodiscard]] const std::string* attribute(std::string_view key) const;
};
struct CoreNameFrame {
    std::int32_t core = 0, cpuid = 0;
    std::string name;
};

struct BlockCounterFrame {
    std::int32_t core = 0;
    std::vector<std::pair<std::int32_t, std::int64_t>> entries;  // key 0 time, 1 tid, 2 core
};

struct ExternalFrame {
    std::int32_t id = 0;
    bool disconnect = false;             // `p32 -1, p32 id`
    std::span<const std::uint8_t> data;  // points into the frame
};

// PERF_ATTRS messages.
struct PeaMessage {
    PerfAttr attr;
    std::int32_t key = 0;
};
struct KeysMessage {
    std::vector<std::pair<std::uint64_t, std::int32_t>> ids;  // perf event id -> key
};
struct TextMessage {  // FORMAT, KALLSYMS, HEADER_PAGE, HEADER_EVENT
    std::string_view text;
};
struct MapsMessage {
    std::int32_t pid = 0, tid = 0;
    std::string_view maps;
};
struct CommMessage {
    std::int32_t pid = 0, tid = 0;
    std::string_view image, comm;
};
struct CpuMessage {  // ONLINE_CPU, OFFLINE_CPU
    std::int64_t time = 0;
    std::int32_t cpu = 0;
};
struct CountersMessage {
    std::int64_t time = 0;
    struct Value {
        std::int32_t core = 0, key = 0;
        std::int64_t value = 0;
    };
    std::vector<Value> values;
};
struct BuildIdMessage {                // KERNEL_BUILD_ID, KERNEL_MODULE_BUILD_ID
    std::string_view module;           // empty for the kernel's
    std::span<const std::uint8_t> id;  // points into the frame
};
struct OpaqueMessage {};  // KEYS_OLD, METRIC_EVENT_KEY: syntax checked, nothing kept

struct AttrsMessage {
    AttrsCode code{};
    std::uint64_t offset = 0;  // of the message code
    std::variant<PeaMessage, KeysMessage, TextMessage, MapsMessage, CommMessage, CpuMessage,
                 CountersMessage, BuildIdMessage, OpaqueMessage>
        body;
};
struct PerfAttrsFrame {
    std::int32_t legacy_core = 0;
    std::vector<AttrsMessage> messages;  // empty for the 2-byte frame gatord sometimes sends
};

// PERF_DATA: the ring-buffer words, unpacked back to the kernel's little-endian bytes.
struct PerfDataFrame {
    std::int32_t cpu = 0;
    std::uint32_t packed_bytes = 0;           // the frame's u32le N
    std::vector<std::uint8_t> raw;            // 8 bytes per word
    std::vector<std::uint64_t> word_offsets;  // input offset of each packed word
};

struct PerfAuxFrame {
    std::int32_t cpu = 0;
    std::int64_t tail = 0;
    std::span<const std::uint8_t> data;
};
struct PerfSyncFrame {
    std::int32_t cpu = 0, pid = 0, tid = 0;
    std::int64_t freq = 0, monotonic_raw = 0, counter = 0;
};

struct DecodedPerfFrame {
    std::int32_t type = 0;
    std::uint64_t offset = 0;  // of body[0]
    std::variant<SummaryFrame, CoreNameFrame, BlockCounterFrame, ExternalFrame, PerfAttrsFrame,
                 PerfDataFrame, PerfAuxFrame, PerfSyncFrame>
        body;
};

// Decodes one frame body; the error names the offset, frame and field where it fails (a frame
// type this framing does not define is an error too).
Result<DecodedPerfFrame> decode_perf_frame(std::span<const std::uint8_t> body,
                                           std::uint64_t body_offset);

}  // namespace apcgate::perf_framing
