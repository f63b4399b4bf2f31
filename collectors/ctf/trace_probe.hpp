// What must be known before a capture starts (declare()/describe()/time_origin()), read without
// decoding the events: a first, short run of the graph up to the first packet of the streams
// (every trace's classes exist by then: source.ctf.fs parses the whole metadata when it starts),
// and the trace-infos query for the time span. It runs in the probe's worker process
// (ctf_worker.hpp), which sends the result to the source as a frame (worker_frames.hpp).
//
// The result can keep the probe's graph and the messages it took, for a caller that goes on
// reading from there in the same process (the source's workers do not: the decoding worker
// builds its own graph). Kept, they also avoid a leak in libbabeltrace2 2.0: a graph destroyed
// while source.ctf.fs holds a decoding error back for its next call (it does so when the error
// comes after other messages of the same batch) never frees that error.
#pragma once

#include <babeltrace2/babeltrace.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collectors/ctf/ctf_counters.hpp"
#include "collectors/ctf/trace_query.hpp"
#include "collectors/ingest/input_clock.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::ctf {

// Messages the probe reads (and keeps) at most looking for the classes of every trace.
inline constexpr std::uint64_t kProbeMessageLimit = 10000;

class TraceGraph;
class MessageHandler;

// What the probe learns of one clock class (the default clock of some stream class).
struct ClockClassInfo {
    std::string name;  // "" when it has none
    std::string uuid;  // canonical text form, "" when it has none
    bool unix_epoch = false;
    std::uint64_t frequency = 0;
    std::int64_t offset_s = 0;
    std::uint64_t offset_cycles = 0;
};

// The clock class offset (seconds + cycles at `frequency`) in ns, when it fits in 64 bits.
std::optional<std::int64_t> clock_offset_ns(const ClockClassInfo& c);

// LTTng names its trace clock "monotonic" (UST and kernel alike; a clock plugin that replaces
// it gives its own name): the raw values are CLOCK_MONOTONIC ns and the offset is realtime -
// monotonic when the session started, measured by each session (and domain) on its own.
inline constexpr std::string_view kLttngClockName = "monotonic";
// Offsets of LTTng traces of one input this close are one measurement of realtime - monotonic.
inline constexpr std::int64_t kOffsetAgreementNs = 1'000'000;

// The input's clock from the clock classes of its streams (in the order they were met), and
// whether some stream has no clock (its events have no time: the input is a domain alone).
ingest::InputClock decide_clock(const std::vector<ClockClassInfo>& clocks, bool unclocked_streams);

// Messages taken from a graph, with a reference each, until they are handed over.
class HeldMessages {
  public:
    HeldMessages() = default;
    ~HeldMessages() { release(); }
    HeldMessages(HeldMessages&& other) noexcept : messages_(std::move(other.messages_)) {
        other.messages_.clear();
    }
    HeldMessages& operator=(HeldMessages&& other) noexcept;
    HeldMessages(const HeldMessages&) = delete;
    HeldMessages& operator=(const HeldMessages&) = delete;

    void hold(const bt_message* m);
    void release();

  private:
    std::vector<const bt_message*> messages_;
};

struct ProbeResult {
    std::vector<std::filesystem::path> traces;  // the ones libbabeltrace2 could open
    // The others, with what libbabeltrace2 said, and what of damaged stream files was not read
    // (TraceGraph::losses()).
    std::vector<Error> rejected;
    CounterNeeds needs;
    std::string hostname;  // the first trace's `hostname` environment entry
    int cores = 1;
    std::optional<TimeRange> range;  // over all traces, ns from the clocks' origin
    // What those ns are measured on (decide_clock()); an input of no trace is a domain alone.
    ingest::InputClock clock{"", std::nullopt, "CTF clock (no trace read)"};
    // For the first capture: the graph, and the messages already taken from it. The messages
    // are declared last so they are released before the graph they belong to.
    std::unique_ptr<TraceGraph> graph;
    HeldMessages held;
};

Result<ProbeResult> probe_traces(const std::vector<std::filesystem::path>& traces);

}  // namespace apcgate::collectors::ctf
