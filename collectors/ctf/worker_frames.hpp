// The frames the CTF worker process (ctf_worker.hpp) writes to its parent over a pipe: what the
// probe found, chunks of mapped model events, an error, the end. The child runs libbabeltrace2
// on a hostile trace, so its output is as untrusted as the trace: the parent reads every frame
// with the bounds-checked wire::ByteReader, and a frame too long or malformed is an error.
//
// Integers are little-endian and fixed-width; a string is u32 length + bytes.
//   frame   := length:u32 kind:u8 body[length - 1]          (length <= kMaxFrameBytes)
//   kind 1 probe := ntraces:u32 path* nrejected:u32 error* irq:u8 softirq:u8 sched:u8
//                   nperf:u32 (index:i32 type:u8 counter label per_thread:u8)* needs_cores:i32
//                   hostname cores:i32 has_range:u8 [begin:i64 end:i64]
//                   clock_domain has_to_monotonic:u8 [to_monotonic:i64] clock_description
//                   (the input's clock, trace_probe.hpp; both strings <= kMaxClockText)
//   kind 2 chunk := watermark:i64 clock_ns:i64 finished:u8
//                   nkinds:u32 (name read:u64 mapped:u64 skipped:u64)*
//                   nproblems:u32 error* stopped:u8
//                   nevents:u32 event*
//   kind 3 error := error
//   kind 4 end   := (empty)
//   error   := message input has_offset:u8 offset:u64 record field ncontext:u32 string*
//   event   := tag:u8 then, by tag (only what the CTF mappers emit):
//     1 CounterSample    ts:i64 core:i32 key:i32 value:i64 pid:i32
//     2 ActivitySwitch   ts:i64 core:i32 key:i32 activity:i32 tid:i32 wait:i32
//     3 ThreadName       ts:i64 core:i32 tid:i32 name
//     4 ProcComm         ts:i64 core:i32 pid:i32 tid:i32 image comm
//     5 TaskExit         ts:i64 tid:i32
//     6 SchedSwitch      ts:i64 core:i32 tid:i32 state:i32
//     7 StringAnnotation ts:i64 core:i32 tid:i32 channel:i32 color text
//     8 MarkerAnnotation ts:i64 core:i32 tid:i32 color text
//     9 GroupName        ts:i64 core:i32 tid:i32 group:i32 name
//    10 ChannelName      ts:i64 core:i32 tid:i32 channel:i32 group:i32 name
//   color   := has:u8 [r:u8 g:u8 b:u8]
// Counter keys in the child are its own (3, 4, ... in the order the parent listed the counter
// names); the parent maps them back to the capture's keys while decoding.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "collectors/ctf/deferred_texts.hpp"
#include "collectors/ctf/trace_probe.hpp"
#include "collectors/ingest/ingest_report.hpp"
#include "protocol/model/event.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::ctf {

// A chunk ends after kChunkEvents model events or kChunkTextBytes of text, whichever comes
// first; it may pass either by one batch of messages' worth.
inline constexpr std::size_t kChunkEvents = 16384;
inline constexpr std::size_t kChunkSlack = 4096;
inline constexpr std::size_t kChunkTextBytes = 1 << 20;

// A chunk is about kChunkEvents events and kChunkTextBytes of text: far below this.
inline constexpr std::uint32_t kMaxFrameBytes = 64u << 20;
inline constexpr std::size_t kFrameHeaderBytes = 5;
// The probe's clock domain and description are a few dozen bytes (the clock's name is cut at
// 128): a longer one in a frame is garbage.
inline constexpr std::uint32_t kMaxClockText = 1024;

enum class FrameKind : std::uint8_t { Probe = 1, Chunk = 2, Error = 3, End = 4 };

// Model events of one stretch of the trace with what they add to the report.
struct Chunk {
    std::vector<model::Event> events;
    // The worker's: the annotation texts of `events` (written into the frame in their events'
    // places). The parent's chunks hold their texts in the events and runs, and this is empty.
    DeferredTexts texts;
    ingest::IngestReport counts{"ctf", ""};  // what this chunk adds to the report
    model::Nanos watermark = 0;
    std::int64_t clock_ns = 0;  // the trace's clock reached, for progress
    bool finished = false;
};

// A byte buffer that does not zero the bytes it grows by: the encoder writes every one of them,
// and zeroing a chunk's few MiB each time was a measurable part of the worker's time.
template <typename T>
struct UninitializedAllocator : std::allocator<T> {
    template <typename U>
    struct rebind {  // NOLINT(readability-identifier-naming): the allocator requirements' name
        using other = UninitializedAllocator<U>;
    };
    template <typename U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};
using FrameBytes = std::vector<std::uint8_t, UninitializedAllocator<std::uint8_t>>;

// ---- child side: each appends one whole frame to `out` ----
void encode_probe(const ProbeResult& probe, FrameBytes& out);
void encode_chunk(const Chunk& chunk, FrameBytes& out);
void encode_error(const Error& error, FrameBytes& out);
void encode_end(FrameBytes& out);

// ---- parent side ----
struct FrameHeader {
    FrameKind kind = FrameKind::End;
    std::uint32_t body_bytes = 0;
};
// The 5 header bytes: an error for an unknown kind or a length over kMaxFrameBytes.
Result<FrameHeader> decode_header(std::span<const std::uint8_t> header);
// The probe's result (without a graph: that stayed in the child).
Result<ProbeResult> decode_probe(std::span<const std::uint8_t> body);
// Into `out` (its buffers reused). `keys[k - 3]` is the capture's key of the child's key k.
// Each stretch of two or more uncoloured string annotations becomes one model::SpanRun.
Status decode_chunk(std::span<const std::uint8_t> body, const std::vector<model::CounterKey>& keys,
                    Chunk& out);
// The worker's error into `out` (Result<Error> cannot be: an Error is the failure).
Status decode_error(std::span<const std::uint8_t> body, Error& out);

}  // namespace apcgate::collectors::ctf
