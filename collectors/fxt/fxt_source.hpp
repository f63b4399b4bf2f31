// The FXT archive as an IngestSource (collectors/ingest/ingest_source.hpp). Opening maps the
// file and runs the first pass (archive_index.hpp) for the counters and the time origin; each
// start() reads the archive afresh (a rewritten file is mapped and indexed again) and each poll
// hands out one bounded chunk of the second pass (archive_reader.hpp) mapped to model events.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>

#include "collectors/fxt/archive_index.hpp"
#include "collectors/fxt/archive_reader.hpp"
#include "collectors/fxt/model_mapper.hpp"
#include "collectors/ingest/ingest_source.hpp"
#include "protocol/wire/mapped_file.hpp"

namespace apcgate::collectors::fxt {

// Everything one capture's read of an archive needs; rebuilt by every start().
struct FxtRun {
    KoidMap koids;
    std::unique_ptr<ArchiveReader> reader;
    std::unique_ptr<ModelMapper> mapper;
    std::optional<PageRelease> pages;  // of the second pass
    std::vector<Item> items;
    model::Nanos zero = 0;
    model::Nanos last = 0;  // latest timestamp handed out (capture timeline)
    bool prelude_sent = false;
    bool finished = false;
};

class FxtSource final : public ingest::IngestSource {
  public:
    static Result<std::unique_ptr<FxtSource>> open(const std::filesystem::path& path,
                                                   ArchiveReader::Limits limits = {});

    [[nodiscard]] std::string_view name() const override { return "fxt"; }
    void declare(model::CounterCatalog& catalog) override;
    void describe(model::TargetInfo& target) override;
    Status start(const CaptureContext& ctx) override;
    PollResult poll(model::Nanos now, std::vector<model::Event>& out) override;
    void stop(model::Nanos now, std::vector<model::Event>& out) override;

    [[nodiscard]] model::Nanos time_origin() const override;
    // The trace's ticks (zx_ticks on Fuchsia), which the format relates to no other clock.
    [[nodiscard]] ingest::InputClock clock() const override {
        return {"fxt", std::nullopt, "FXT ticks"};
    }
    Status refresh() override;
    [[nodiscard]] const ingest::IngestReport& report() const override { return report_; }
    [[nodiscard]] const ArchiveIndex& index() const { return *index_; }

  private:
    FxtSource(std::filesystem::path path, wire::MappedFile input, ArchiveReader::Limits limits);

    std::filesystem::path path_;
    wire::MappedFile input_;
    std::unique_ptr<ArchiveIndex> index_;
    ArchiveReader::Limits limits_;
    ingest::IngestReport report_;
    std::optional<FxtRun> run_;
    bool unread_ = true;  // no capture has read input_ since it was mapped
};

}  // namespace apcgate::collectors::fxt
