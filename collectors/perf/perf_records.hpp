// The perf ring-buffer records this collector reads, as types. Layouts are those of
// linux/perf_event.h ("enum perf_event_type") and perf_event_open(2), "MMAP layout":
//
//   record        := header body
//   header        := u32 type, u16 misc, u16 size        (size counts the header)
//   SAMPLE   (9)  := fields present per the event's sample_type, in this order:
//                    [u64 identifier] [u64 ip] [u32 pid, u32 tid] [u64 time] [u64 addr]
//                    [u64 id] [u64 stream_id] [u32 cpu, u32 res] [u64 period]
//                    [u64 nr, u64 ips[nr]] [u32 size, u8 raw[size]]
//   MMAP2    (10) := u32 pid, u32 tid, u64 addr, u64 len, u64 pgoff,
//                    (u32 maj, u32 min, u64 ino, u64 ino_generation      misc without BUILD_ID
//                     | u8 build_id_size, u8 res[3], u8 build_id[20])     misc & BUILD_ID
//                    u32 prot, u32 flags, char filename[] (NUL, padded to 8), sample_id
//   COMM     (3)  := u32 pid, u32 tid, char comm[] (NUL, padded to 8), sample_id
//   FORK (7), EXIT (4) := u32 pid, u32 ppid, u32 tid, u32 ptid, u64 time, sample_id
//   LOST     (2)  := u64 id, u64 lost, sample_id
//   LOST_SAMPLES (13) := u64 lost, sample_id
//   THROTTLE (5), UNTHROTTLE (6) := u64 time, u64 id, u64 stream_id, sample_id
//   SWITCH   (14) := sample_id
//   SWITCH_CPU_WIDE (15) := u32 next_prev_pid, u32 next_prev_tid, sample_id
//   sample_id     := [u32 pid, u32 tid] [u64 time] [u64 id] [u64 stream_id] [u32 cpu, u32 res]
//                    [u64 identifier]            (per sample_type; at the end of the record)
//
// Every event this collector opens sets PERF_SAMPLE_IDENTIFIER, so the event a record belongs
// to is found at a fixed place (the first u64 of a SAMPLE, the last u64 of anything else) before
// the rest of its layout is known. Records hold spans into the bytes they were parsed from.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace apcgate::collectors::perf {

// Record types (linux/perf_event.h enum perf_event_type).
enum class RecordType : std::uint32_t {
    Mmap = 1,
    Lost = 2,
    Comm = 3,
    Exit = 4,
    Throttle = 5,
    Unthrottle = 6,
    Fork = 7,
    Read = 8,
    Sample = 9,
    Mmap2 = 10,
    LostSamples = 13,
    Switch = 14,
    SwitchCpuWide = 15,
};
const char* record_kind_name(std::uint32_t type);  // "SAMPLE", "MMAP2", ..., "other"

// header.misc bits we interpret.
inline constexpr std::uint16_t kMiscCpuModeMask = 0x7;
inline constexpr std::uint16_t kMiscKernel = 1;
inline constexpr std::uint16_t kMiscUser = 2;
inline constexpr std::uint16_t kMiscCommExec = 1u << 13;
inline constexpr std::uint16_t kMiscSwitchOut = 1u << 13;
inline constexpr std::uint16_t kMiscSwitchOutPreempt = 1u << 14;
inline constexpr std::uint16_t kMiscMmapBuildId = 1u << 14;

struct SampleId {
    std::int32_t pid = -1;
    std::int32_t tid = -1;
    std::uint64_t time = 0;
    std::int32_t cpu = -1;
    std::uint64_t id = 0;
};

struct SampleRecord {
    SampleId sid;
    std::uint16_t misc = 0;
    std::uint64_t ip = 0;
    std::uint64_t period = 0;
    std::vector<std::uint64_t> callchain;  // with PERF_CONTEXT_* markers, as the kernel wrote it
    std::span<const std::uint8_t> raw;     // tracepoint payload
};

struct Mmap2Record {
    SampleId sid;
    std::uint32_t pid = 0, tid = 0;
    std::uint64_t addr = 0, len = 0, pgoff = 0;
    std::uint32_t prot = 0, flags = 0;
    std::string filename;
};

struct CommRecord {
    SampleId sid;
    std::uint32_t pid = 0, tid = 0;
    bool exec = false;
    std::string comm;
};

struct TaskRecord {  // FORK or EXIT
    SampleId sid;
    bool fork = false;
    std::uint32_t pid = 0, ppid = 0, tid = 0, ptid = 0;
    std::uint64_t time = 0;
};

struct LostRecord {  // LOST (records dropped, ring full) or LOST_SAMPLES (samples dropped)
    SampleId sid;
    bool samples = false;
    std::uint64_t lost = 0;
};

struct ThrottleRecord {
    SampleId sid;
    bool throttled = true;  // false: UNTHROTTLE
};

struct SwitchRecord {  // SWITCH (per task) or SWITCH_CPU_WIDE
    SampleId sid;
    bool out = false;        // the task in sid is leaving the CPU
    bool preempted = false;  // ... while still runnable
    bool cpu_wide = false;
    std::int32_t next_prev_pid = -1, next_prev_tid = -1;  // cpu-wide: the other task
};

// A record type we do not map (READ, AUX, KSYMBOL, ...): counted, then skipped.
struct OtherRecord {
    std::uint32_t type = 0;
};

using PerfRecord = std::variant<SampleRecord, Mmap2Record, CommRecord, TaskRecord, LostRecord,
                                ThrottleRecord, SwitchRecord, OtherRecord>;

// The time of a parsed record (0 when its layout carried none).
std::uint64_t record_time(const PerfRecord& r);

}  // namespace apcgate::collectors::perf
