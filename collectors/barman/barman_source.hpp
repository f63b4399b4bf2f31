// The Barman IngestSource: a data store dump (linear or circular) as a capture.
//
// open() reads the header (to declare counters and describe the target) and makes one quick
// pass over the record blocks for the earliest timestamp (time_origin()) and the cores they
// name. start() reads the file afresh when it changed since (a debugger may have rewritten it:
// its identity, device, inode, size and modification time, says so), and what open() read when
// it did not; then poll() decodes a bounded chunk per call: tokenizer -> parser -> mapper ->
// EventOrder. Header problems, bad records and the reason reading stopped land in report();
// records decoded before a problem are always kept.
#pragma once

#include <filesystem>
#include <memory>

#include "collectors/barman/barman_statistics.hpp"
#include "collectors/barman/counter_plan.hpp"
#include "collectors/barman/dump_file.hpp"
#include "collectors/barman/event_order.hpp"
#include "collectors/barman/header.hpp"
#include "collectors/barman/record_mapper.hpp"
#include "collectors/barman/records.hpp"
#include "collectors/barman/store_geometry.hpp"
#include "collectors/ingest/ingest_source.hpp"

namespace apcgate::collectors::barman {

class BarmanSource final : public ingest::IngestSource {
  public:
    // Limits per poll(): the events handed out (a SampleRun's samples each count as the event it
    // stands for) and the record bytes decoded. Small enough that a poll's events and samples
    // (about 0.5 MiB) stay in the cache between mapping and release, and that the allocator
    // reuses their memory: at 64 Ki events a conversion of the bench store touched about 7 MiB
    // of fresh pages per capture (page faults were 5 % of its time) and held 4.7 MB more.
    static constexpr std::size_t kMaxEventsPerPoll = std::size_t{16} * 1024;
    static constexpr std::uint64_t kMaxBytesPerPoll = 1u << 20;

    static Result<std::unique_ptr<BarmanSource>> open(const ingest::IngestOptions& options);
    ~BarmanSource() override;

    [[nodiscard]] std::string_view name() const override { return "barman"; }
    void declare(model::CounterCatalog& catalog) override;
    void describe(model::TargetInfo& target) override;
    Status start(const CaptureContext& ctx) override;
    PollResult poll(model::Nanos now, std::vector<model::Event>& out) override;
    void stop(model::Nanos now, std::vector<model::Event>& out) override;
    [[nodiscard]] model::Nanos time_origin() const override { return origin_; }
    // The target's timer, which nothing in a dump relates to any other clock.
    [[nodiscard]] ingest::InputClock clock() const override {
        return {"barman", std::nullopt, "Barman target timer"};
    }
    // Reads the dump as it is now (a debugger may have rewritten it): its time origin, and what
    // the next start() reads.
    Status refresh() override;
    [[nodiscard]] const ingest::IngestReport& report() const override { return report_; }

    // The header read by open(), for tests and tools.
    [[nodiscard]] const Header& header() const { return header_; }

    // What one read of the file gives: the file, its header and record geometry.
    struct Loaded {
        DumpFile file;
        Header header;
        StoreGeometry geometry;
        std::vector<Error> store_problems;
    };
    static Result<Loaded> load(const std::filesystem::path& path);

  private:
    struct Capture;
    BarmanSource(std::filesystem::path path, Header header, model::Nanos origin, int cores_named,
                 std::uint64_t size);
    void finish_reading();
    // Adds what the capture's EventOrder counted since the last call to the report.
    void add_statistics();
    // The input's time origin; sets `cores_named` to the cores its records name (below
    // max_cores; the highest + 1).
    static model::Nanos origin_of(const Loaded& loaded, int& cores_named);

    std::filesystem::path path_;
    Header header_;
    CounterPlan plan_;
    model::Nanos origin_ = 0;
    int cores_named_ = 0;
    ingest::IngestReport report_;
    std::unique_ptr<Capture> capture_;
    std::optional<Loaded> refreshed_;  // read by open() or refresh(), for the next start()
    // The version of the file origin_ and cores_named_ were surveyed from.
    std::optional<wire::FileIdentity> surveyed_;
    model::Nanos watermark_ = 0;
};

}  // namespace apcgate::collectors::barman
