// What the perf records mean, independent of how the kernel delivered them: the normalizer
// (record_normalizer.hpp) turns tracepoint samples, side-band records and counter reads into
// these, the reader sorts them by time across CPUs, and the mapper (event_mapper.hpp) turns
// them into model events. `time` is CLOCK_MONOTONIC_RAW ns (model::kTimelineClock), the clock
// every event is opened with.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::perf {

// A CPU changes task. next_tid 0 is the idle task; -1 means "a task we do not follow" (shown as
// idle too). next_comm is empty, next_pid -1, when the source did not say.
struct SwitchEv {
    std::uint64_t time = 0;
    std::int32_t cpu = 0;
    std::int32_t next_tid = 0;
    std::string next_comm;
    model::WaitState wait = model::WaitState::Other;  // why the previous task stopped
    std::int32_t next_pid = -1;                       // the process of next_tid
};

struct ForkEv {
    std::uint64_t time = 0;
    std::int32_t cpu = 0;
    std::int32_t pid = 0, ppid = 0, tid = 0, ptid = 0;
};

struct ExitEv {
    std::uint64_t time = 0;
    std::int32_t cpu = 0;
    std::int32_t pid = 0, tid = 0;
};

struct CommEv {
    std::uint64_t time = 0;
    std::int32_t cpu = 0;
    std::int32_t pid = 0, tid = 0;
    bool exec = false;
    std::string comm;
};

struct MmapEv {
    std::uint64_t time = 0;
    std::int32_t cpu = 0;
    std::int32_t pid = 0;
    std::uint64_t start = 0, len = 0, pgoff = 0;
    bool executable = true;
    std::string filename;
};

struct SampleEv {
    std::uint64_t time = 0;
    std::int32_t cpu = 0;
    std::int32_t pid = 0, tid = 0;
    std::uint64_t ip = 0;
    bool kernel = false;                   // the ip is a kernel address (header.misc)
    std::vector<std::uint64_t> callchain;  // empty: no call stack, only ip
};

struct IdleEv {
    std::uint64_t time = 0;
    std::int32_t cpu = 0;
    std::int32_t state = -1;
};

struct CounterEv {
    std::uint64_t time = 0;
    std::int32_t cpu = 0;
    model::CounterKey key = 0;
    std::int64_t value = 0;
};

// The end of a counter period on one CPU: the mapper turns the switches it saw on that CPU since
// the previous tick into the share of the period a task ran (the activity counter's value).
struct ActivityTickEv {
    std::uint64_t time = 0;
    std::int32_t cpu = 0;
};

// A line for the capture's log (e.g. records lost), shown as a text annotation.
struct NoteEv {
    std::uint64_t time = 0;
    std::string text;
};

using TraceEvent = std::variant<SwitchEv, ForkEv, ExitEv, CommEv, MmapEv, SampleEv, IdleEv,
                                CounterEv, ActivityTickEv, NoteEv>;

inline std::uint64_t time_of(const TraceEvent& e) {
    return std::visit([](const auto& v) { return v.time; }, e);
}

}  // namespace apcgate::collectors::perf
