// The record kinds the FXT ingester reports (IngestReport statistics and the `record` field of
// errors), declared once. A kind is decided from the header word alone, so a record that fails
// to parse is still counted under the right name.
#pragma once

#include <cstdint>
#include <string_view>

namespace apcgate::collectors::fxt::kind {

// Metadata (record type 0) and the records that set up tables and clocks.
inline constexpr std::string_view kMagic = "magic number";
inline constexpr std::string_view kTraceInfo = "trace info";
inline constexpr std::string_view kProviderInfo = "provider info";
inline constexpr std::string_view kProviderSection = "provider section";
inline constexpr std::string_view kProviderEvent = "provider event";
inline constexpr std::string_view kMetadata = "metadata of unknown type";
inline constexpr std::string_view kInitialization = "initialization";
inline constexpr std::string_view kString = "string";
inline constexpr std::string_view kThread = "thread";
// Event records (type 4), one kind per event type.
inline constexpr std::string_view kInstant = "instant event";
inline constexpr std::string_view kCounter = "counter event";
inline constexpr std::string_view kDurationBegin = "duration begin";
inline constexpr std::string_view kDurationEnd = "duration end";
inline constexpr std::string_view kDurationComplete = "duration complete";
inline constexpr std::string_view kAsyncBegin = "async begin";
inline constexpr std::string_view kAsyncInstant = "async instant";
inline constexpr std::string_view kAsyncEnd = "async end";
inline constexpr std::string_view kFlowBegin = "flow begin";
inline constexpr std::string_view kFlowStep = "flow step";
inline constexpr std::string_view kFlowEnd = "flow end";
inline constexpr std::string_view kEvent = "event of unknown type";
// Everything else.
inline constexpr std::string_view kBlob = "blob";
inline constexpr std::string_view kLargeBlob = "large blob";
inline constexpr std::string_view kLargeRecord = "large record of unknown type";
inline constexpr std::string_view kUserspaceObject = "userspace object";
inline constexpr std::string_view kKernelObject = "kernel object";
inline constexpr std::string_view kLegacyContextSwitch = "context switch (legacy layout)";
inline constexpr std::string_view kContextSwitch = "context switch";
inline constexpr std::string_view kThreadWakeup = "thread wakeup";
inline constexpr std::string_view kFiberSwitch = "fiber switch";
inline constexpr std::string_view kScheduling = "scheduling record of unknown type";
inline constexpr std::string_view kLog = "log";
inline constexpr std::string_view kUnknown = "record of unknown type";

// What the mapping drops after a record was read (counted as `skipped`).
inline constexpr std::string_view kUnmatchedEnd = "duration end without a begin";
inline constexpr std::string_view kUnmatchedAsyncEnd = "async/flow end without a begin";
inline constexpr std::string_view kTooDeep = "span nested too deep";
inline constexpr std::string_view kTooManyChannels = "span on too many async channels";
inline constexpr std::string_view kCounterOff = "counter sample of a disabled counter";
inline constexpr std::string_view kCounterArg = "counter argument that is not a number";
inline constexpr std::string_view kLateEvent = "event older than the reorder window";

// The kind of the record whose header word is `header`.
std::string_view of_header(std::uint64_t header);

}  // namespace apcgate::collectors::fxt::kind
