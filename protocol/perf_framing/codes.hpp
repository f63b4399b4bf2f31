// The frame types and PERF_ATTRS message codes of the Perf-type framing that gatord 9.x writes
// (captured.xml type="Perf", handshake "GATOR 950"). The seed's v6.8 framing lives in
// protocol/apc; these codes overlap it only for Summary (1), Block Counter (5) and External (10).
// See docs/protocol for the field-by-field layout.
#pragma once

#include <cstdint>
#include <string>

namespace apcgate::perf_framing {

// The protocol number a Perf-type capture states in the handshake and in captured.xml.
inline constexpr int kPerfProtocolVersion = 950;

enum class FrameType : std::int32_t {
    Summary = 1,
    BlockCounter = 5,
    External = 10,
    PerfAttrs = 11,
    PerfData = 12,
    PerfAux = 14,
    PerfSync = 15,
};
// "Summary", "PerfData", ...; "type N" for codes this framing does not define.
std::string to_string(std::int32_t frame_type);

enum class AttrsCode : std::int32_t {
    Pea = 1,
    Keys = 2,
    Format = 3,
    Maps = 4,
    Comm = 5,
    KeysOld = 6,
    OnlineCpu = 7,
    OfflineCpu = 8,
    Kallsyms = 9,
    Counters = 10,
    HeaderPage = 11,
    HeaderEvent = 12,
    MetricEventKey = 13,
    KernelBuildId = 14,
    KernelModuleBuildId = 15,
};
// "PEA", "KEYS", ...; "code N" for unknown codes.
std::string to_string(AttrsCode code);

// Summary frame message codes.
inline constexpr std::int32_t kSummaryMessage = 1;
inline constexpr std::int32_t kCoreNameMessage = 3;
// The Summary's fixed canary string that proves no line-ending translation happened.
inline constexpr const char* kSummaryCanary = "1\n2\r\n3\r4\n\r5";

// gatord caps a PERF_DATA frame (header included) at 1 MiB and never splits a record.
inline constexpr std::size_t kMaxPerfDataFrameBytes = std::size_t{1024} * 1024;

// Keys at or above this value are the capture's internal events (gatord counts them down from
// INT_MAX: the context-switch group leader, the side-band dummy, the CPU-clock sampler); the
// others are captured.xml keys.
inline constexpr std::int32_t kFirstInternalKey = 0x7fff0000;

}  // namespace apcgate::perf_framing
