// Parsed Barman records to model events, one record at a time, in store order:
//
//   header cores      -> CoreName (Summary): cpuid and name from the MIDR
//   header task infos -> ThreadName (tid = task id)
//   counter sample    -> a counter value (model::Sample) per PMU counter: the agent stores each
//                        counter's running
//                        64-bit value, so the delta class gets the difference from the same
//                        core's previous read (from 0 when the store holds everything since the
//                        PMU was set up; a wrapped circular store's first read per core is only a
//                        baseline); sampled custom series values as they are
//   PC in a sample    -> a PC sample (a one-frame Backtrace) against the mmap layouts (CookieName
//                        first)
//   task switch       -> ActivitySwitch: activity 1 for the task, reason 0 (preempted) as
//                        Contention, 1 (blocked) as I/O wait
//   custom counter    -> a counter value of the series SeriesResolver picks
//   annotation        -> Annotation: string on a channel, bookmark, channel name, group name
//   halting event     -> Idle: entered = state 0 (in WFI/WFE), exited = -1
//
// Counter values and PC samples go to EventOrder's samples, which it releases as SampleRun events
// (the counter values and PC samples of millions of records, as single events, cost several times
// what decoding the records does); everything else goes out as events.
//
// Timestamps: ticks -> ns since timestamp_base (ClockInfo), minus the capture's zero. A record
// timestamp of ~0 ("use the last timestamp") takes the previous record's.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "collectors/barman/counter_plan.hpp"
#include "collectors/barman/event_order.hpp"
#include "collectors/barman/header.hpp"
#include "collectors/barman/image_map.hpp"
#include "collectors/barman/records.hpp"
#include "collectors/barman/series_resolver.hpp"
#include "collectors/ingest/ingest_report.hpp"
#include "collectors/ingest/kind_tally.hpp"
#include "protocol/model/counter_catalog.hpp"

namespace apcgate::collectors::barman {

class RecordMapper {
  public:
    // `zero_ns` is the capture's zero in this input's ns domain (ns since timestamp_base).
    RecordMapper(const Header& header, const CounterPlan& plan,
                 const model::CaptureCounters& counters, model::Nanos zero_ns, bool evicted);

    // What the header names: core names and thread names, at `ts`.
    void prologue(model::Nanos ts, std::vector<model::Event>& out) const;
    // Appends the record's events and samples to `out` (the caller closes the record with
    // EventOrder::add_record()); counts it as mapped or skipped in `tally`, and its problems in
    // `report`.
    void map(const RecordRef& record, std::uint64_t file_offset, EventOrder& out,
             ingest::IngestReport& report, ingest::KindTally& tally);
    // The same for a sample (RecordParser::parse_sample()), but for the tally: returns whether
    // it is mapped (else skipped), so that the caller counts it with one lookup of its kind.
    bool map(const SampleRecord& sample, std::uint64_t file_offset, EventOrder& out,
             ingest::IngestReport& report) {
        return map_sample(sample, file_offset, out, report);
    }
    // And for a custom counter value (RecordParser::parse_custom_value()).
    bool map(const CustomCounterRecord& record, EventOrder& out, ingest::IngestReport& report);
    // The timeline timestamp of the last record mapped.
    [[nodiscard]] model::Nanos last_ts() const { return last_ts_; }

  private:
    // One PMU counter of a core. Plain fields rather than optionals: every value of every
    // sample reads and writes its slot.
    struct Slot {
        std::uint64_t last = 0;     // previous read, if has_last
        model::CounterKey key = 0;  // 0: not in the capture (keys are > 2)
        bool has_last = false;
    };
    struct CoreState {
        std::vector<Slot> slots;          // per PMU slot
        std::uint32_t task = 0;           // from the last task switch
        std::vector<bool> named_cookies;  // by cookie: named on this core (a lookup per PC)
    };

    model::Nanos timeline(std::uint64_t ticks);
    std::int32_t tid_of(std::optional<std::uint32_t> task, std::uint32_t core) const;
    CoreState* core_state(std::uint32_t core);
    bool map_sample(const SampleRecord& s, std::uint64_t file_offset, EventOrder& out,
                    ingest::IngestReport& report);
    // A custom counter record's value, on the series its id and core resolve to.
    bool map_custom_counter(model::Nanos ts, const CustomCounterRecord& r, EventOrder& out,
                            ingest::IngestReport& report);
    bool map_custom(model::Nanos ts, std::uint32_t core, std::uint32_t series, std::uint64_t value,
                    EventOrder& out) const;
    bool map_pc(model::Nanos ts, std::uint32_t core, std::optional<std::uint32_t> task,
                std::uint64_t pc, EventOrder& out);
    bool map_annotation(model::Nanos ts, const AnnotationRecord& a,
                        std::vector<model::Event>& out) const;

    const Header& header_;
    ClockInfo clock_;
    wire::InvariantDivider by_divisor_;  // clock_.divider(), made once
    model::Nanos zero_ns_;
    std::uint64_t last_ticks_;
    model::Nanos last_ts_ = 0;
    ImageMap images_;
    SeriesResolver resolver_;
    std::vector<CoreState> cores_;
    std::vector<model::CounterKey> series_keys_;  // 0: not in the capture
    std::optional<model::CounterKey> activity_key_;
};

}  // namespace apcgate::collectors::barman
