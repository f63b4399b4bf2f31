// An XRay log as a capture source: it maps the log, reads it with XrayReader and hands the
// calls to SpanMapper and CallRateCounters, at most kEventsPerPoll calls per poll so memory
// stays bounded however large the log. Times are the log's TSCs in ns minus the capture's zero
// (the earliest time_origin() of all inputs), so several logs of one run share one timeline.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "collectors/ingest/ingest_source.hpp"
#include "collectors/xray/call_rate_counters.hpp"
#include "collectors/xray/function_names.hpp"
#include "collectors/xray/mapped_input.hpp"
#include "collectors/xray/span_mapper.hpp"
#include "collectors/xray/xray_reader.hpp"

namespace apcgate::collectors::xray {

class XraySource final : public ingest::IngestSource {
  public:
    static constexpr std::size_t kEventsPerPoll = 16384;
    static constexpr std::uint32_t kMaxCores = 1024;

    // Maps and indexes the log (and reads the binary's names): what declare() needs.
    static Result<std::unique_ptr<XraySource>> open(const ingest::IngestOptions& options);

    [[nodiscard]] std::string_view name() const override { return "xray"; }
    [[nodiscard]] model::Nanos time_origin() const override;
    [[nodiscard]] const ingest::IngestReport& report() const override { return *report_; }
    void declare(model::CounterCatalog& catalog) override;
    void describe(model::TargetInfo& target) override;
    Status start(const CaptureContext& ctx) override;
    PollResult poll(model::Nanos now, std::vector<model::Event>& out) override;
    void stop(model::Nanos now, std::vector<model::Event>& out) override;

  private:
    explicit XraySource(ingest::IngestOptions options) : options_(std::move(options)) {}
    // Maps the log afresh and reads its header and index into a fresh report.
    Status load();
    void finish(std::vector<model::Event>& out);

    ingest::IngestOptions options_;
    std::string program_;  // the binary's file name, for thread labels
    FunctionNames names_;
    std::unique_ptr<ingest::IngestReport> report_;
    MappedInput input_;
    std::unique_ptr<XrayReader> reader_;
    std::optional<model::Nanos> origin_;
    std::unique_ptr<SpanMapper> mapper_;
    CallRateCounters rates_;
    model::Nanos zero_ = 0;
    model::Nanos watermark_ = 0;
    bool finished_ = false;
};

}  // namespace apcgate::collectors::xray
