// The one event model every collector and ingester emits and the one APC encoder consumes.
// Each type maps to one message of the seed protocol (gator-protocol-v6.8.txt, "APC Frame
// Format"), but carries no wire detail: no packing, no frame codes, no keys other than the
// per-capture counter key. Every event has a timestamp on the capture's timeline (nanoseconds
// after the capture's zero, i.e. relative to the Summary's monotonic delta) so that several
// sources can be merged; events with no timestamp on the wire (names, comms) still carry the
// time they became known, which orders them before the events that use them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "protocol/model/sample_run.hpp"
#include "protocol/model/span_run.hpp"

namespace apcgate::model {

using Nanos = std::int64_t;
using CounterKey = std::int32_t;  // assigned once per capture (> 2), see CaptureCounters

inline constexpr Nanos kNanosPerSecond = 1'000'000'000;

// Why the previously running task stopped (Activity Switch / Sched Switch "Wait State").
enum class WaitState : std::int32_t { Other = 0, Contention = 1, Io = 2 };

// ---- Summary frame ----------------------------------------------------------------------
// Names a core for X-Ray mode and clusters (Summary frame, CPU Core Name message).
struct CoreName {
    Nanos ts = 0;
    std::int32_t core = 0;
    std::int32_t cpuid = 0;  // e.g. 0xd03 (MIDR part number with implementer)
    std::string name;        // e.g. "Cortex-A53"
};

// ---- Name frame -------------------------------------------------------------------------
struct CookieName {
    Nanos ts = 0;
    std::int32_t core = 0;
    std::int32_t cookie = 0;  // > 1
    std::string name;         // path of the image
};

struct ThreadName {
    Nanos ts = 0;
    std::int32_t core = 0;
    std::int32_t tid = 0;
    std::string name;
};

// ---- Proc frame -------------------------------------------------------------------------
struct ProcComm {
    Nanos ts = 0;
    std::int32_t core = 0;
    std::int32_t pid = 0;
    std::int32_t tid = 0;
    std::string image;  // executable path (same string as its exec cookie's name)
    std::string comm;   // thread name
};

// ---- Backtrace frame --------------------------------------------------------------------
struct StackFrame {
    std::int32_t cookie = 0;  // image containing the address; 0 = kernel, -1 = unknown
    std::int64_t offset = 0;  // offset within that image
};

struct Backtrace {
    Nanos ts = 0;
    std::int32_t core = 0;
    std::int32_t exec_cookie = 0;
    std::int32_t pid = 0;
    std::int32_t tid = 0;
    std::vector<StackFrame> frames;  // innermost first; at least one
};

// ---- Counter / Block Counter frames -------------------------------------------------------
// One counter value. Whether it travels in a Counter or a Block Counter frame is the counter's
// Delivery (declared in the catalog), decided by the encoder; consecutive block samples with the
// same timestamp share one block.
struct CounterSample {
    Nanos ts = 0;
    std::int32_t core = 0;
    CounterKey key = 0;
    std::int64_t value = 0;  // deltas for delta/incident counters, levels for absolute ones
    std::int32_t pid = -1;   // block counters only: associate with this pid (-1: none)
};

// ---- Scheduler Trace frame ----------------------------------------------------------------
struct SchedSwitch {
    Nanos ts = 0;
    std::int32_t core = 0;
    std::int32_t tid = 0;
    WaitState state = WaitState::Other;
};

struct SchedThreadExit {
    Nanos ts = 0;
    std::int32_t core = 0;
    std::int32_t tid = 0;
};

// ---- Activity Trace frame -----------------------------------------------------------------
struct ActivityLink {
    Nanos ts = 0;
    std::int32_t cookie = 0;
    std::int32_t pid = 0;
    std::int32_t tid = 0;
};

struct ActivitySwitch {
    Nanos ts = 0;
    std::int32_t core = 0;
    CounterKey key = 0;         // an activity-class counter
    std::int32_t activity = 0;  // activityN index from the events XML, 0 = idle
    std::int32_t tid = -1;      // -1: no thread association
    WaitState wait = WaitState::Other;
};

struct TaskExit {
    Nanos ts = 0;
    std::int32_t tid = 0;
};

// ---- Idle frame ---------------------------------------------------------------------------
struct Idle {
    Nanos ts = 0;
    std::int32_t core = 0;
    std::int32_t state = -1;  // -1: running again; >= 0: in a wait-for-interrupt state
};

// ---- Annotate frame (userspace annotations) -------------------------------------------------
struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    bool operator==(const Rgb&) const = default;
};

// "text\n" in the Log tab (ASCII String Annotation).
struct TextAnnotation {
    std::optional<Rgb> color;
    std::string text;
};
// 0x1C 0x06: a UTF-8 string on a channel; an empty text ends the channel's current span.
struct StringAnnotation {
    std::int32_t channel = 0;
    std::optional<Rgb> color;
    std::string text;
};
// 0x1C 0x05: a bookmark.
struct MarkerAnnotation {
    std::optional<Rgb> color;
    std::string text;
};
// 0x1C 0x08: names a group.
struct GroupName {
    std::int32_t group = 0;
    std::string name;
};
// 0x1C 0x07: names a channel within a group.
struct ChannelName {
    std::int32_t channel = 0;
    std::int32_t group = 0;
    std::string name;
};
// 0x1C 0x04: a text and an image for the Visual Annotation chart.
struct VisualAnnotation {
    std::string text;
    std::vector<std::uint8_t> image;
};
// Userspace annotation bytes already in the seed's format (e.g. the text form's lines).
struct RawAnnotation {
    std::vector<std::uint8_t> bytes;
};

using AnnotationBody = std::variant<TextAnnotation, StringAnnotation, MarkerAnnotation, GroupName,
                                    ChannelName, VisualAnnotation, RawAnnotation>;

struct Annotation {
    Nanos ts = 0;
    std::int32_t core = 0;
    std::int32_t tid = 0;
    AnnotationBody body;
};

// SpanRun (span_run.hpp) is many StringAnnotation events in one; SampleRun (sample_run.hpp) is
// many CounterSample and one-frame Backtrace events in one.

// ---- External frame -----------------------------------------------------------------------
// Bytes of one external source (an annotation connection), forwarded unchanged and in order.
struct ExternalData {
    Nanos ts = 0;
    std::int32_t id = 0;  // >= 0, one per source until its disconnect
    std::vector<std::uint8_t> bytes;
};

struct ExternalDisconnect {
    Nanos ts = 0;
    std::int32_t id = 0;
};

using Event = std::variant<CoreName, CookieName, ThreadName, ProcComm, Backtrace, CounterSample,
                           SchedSwitch, SchedThreadExit, ActivityLink, ActivitySwitch, TaskExit,
                           Idle, Annotation, ExternalData, ExternalDisconnect, SpanRun, SampleRun>;

inline Nanos timestamp_of(const Event& e) {
    // Annotations are most of a converted trace's events, and the merger asks every event's
    // time: spare them (and a sampler's runs) the visit's indirect call.
    if (const auto* a = std::get_if<Annotation>(&e)) return a->ts;
    if (const auto* r = std::get_if<SampleRun>(&e)) return r->front_ts();
    return std::visit(
        [](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, SpanRun> || std::is_same_v<T, SampleRun>) {
                return v.front_ts();
            } else {
                return v.ts;
            }
        },
        e);
}

// How many annotations/messages an event stands for (a SpanRun or SampleRun: its pending items).
inline std::size_t event_count(const Event& e) {
    if (const auto* r = std::get_if<SpanRun>(&e)) return r->pending();
    if (const auto* r = std::get_if<SampleRun>(&e)) return r->pending();
    return 1;
}

// The single event a SampleRun's sample stands for (a CounterSample or a Backtrace).
Event single_event(const Sample& s);

// Replaces every SpanRun in `events` by the Annotation events it stands for (for readers that
// want one annotation per event, e.g. tests).
void expand_span_runs(std::vector<Event>& events);
// Replaces every SampleRun in `events` by the CounterSample and Backtrace events it stands for.
void expand_sample_runs(std::vector<Event>& events);

}  // namespace apcgate::model
