// Runs the CTF ingester in-process the way `apcgate convert` drives a source: open, declare,
// enable every declared counter, start, poll until finished; keeps every model event and what
// each poll returned, and offers the views the tests compare (annotations per channel name,
// counter totals per counter name).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "collectors/ingest/ingest_source.hpp"
#include "protocol/model/counter_catalog.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::ctf_test {

// Views over any model event sequence (an in-process run, or a capture decoded back):
// non-empty string annotations per channel name, and the texts on one channel.
std::map<std::string, std::uint64_t> annotations_per_channel(
    const std::vector<model::Event>& events);
std::vector<std::string> channel_texts(const std::vector<model::Event>& events,
                                       const std::string& channel);

struct TraceRun {
    std::unique_ptr<collectors::ingest::IngestSource> source;
    model::CounterCatalog catalog;
    model::CaptureCounters counters;
    model::CaptureSettings settings;
    model::TargetInfo target;
    std::vector<model::Event> events;
    std::vector<std::size_t> poll_sizes;
    model::Nanos zero = 0;

    [[nodiscard]] const collectors::ingest::IngestReport& report() const {
        return source->report();
    }
    // Report "read" counts of the event kinds (not the parenthesised bookkeeping kinds).
    [[nodiscard]] std::map<std::string, std::uint64_t> event_counts() const;
    // Non-empty string annotations per channel name.
    [[nodiscard]] std::map<std::string, std::uint64_t> annotations_per_channel() const;
    // The texts of the non-empty string annotations on the channel named `channel`.
    [[nodiscard]] std::vector<std::string> texts(const std::string& channel) const;
    // Sum of the counter samples per counter name.
    [[nodiscard]] std::map<std::string, std::int64_t> counter_totals() const;
    template <typename T>
    [[nodiscard]] std::vector<T> all() const {
        std::vector<T> out;
        for (const auto& e : events)
            if (const auto* v = std::get_if<T>(&e)) out.push_back(*v);
        return out;
    }
};

// A reproducer of tests/ctf/libbabeltrace2_bugs/ (NAME.fuzz) written out as a trace directory.
std::filesystem::path libbabeltrace2_bug(const std::string& name, const std::filesystem::path& dir);

// Opens `input` as CTF and reads it to the end (`starts` times, as `serve --source` would).
Result<std::unique_ptr<TraceRun>> run_ctf(const std::filesystem::path& input, int starts = 1);

// A fresh empty directory for one test.
std::filesystem::path scratch_dir(const std::string& name);

// A fixture over one trace a test writes: each test's SetUp calls load() with the writer, the
// trace is run through the source once and its scratch directory goes at the end.
class WrittenTrace : public testing::Test {
  protected:
    using Writer = std::filesystem::path (*)(const std::filesystem::path& dir);
    void load(const std::string& scratch, const std::string& leaf, Writer write) {
        dir_ = write(scratch_dir(scratch) / leaf);
        auto run = run_ctf(dir_);
        ASSERT_TRUE(run) << run.error().to_string();
        run_ = std::move(*run);
        ASSERT_TRUE(run_->report().complete()) << run_->report().stop_reason()->to_string();
    }
    void TearDown() override { std::filesystem::remove_all(dir_.parent_path()); }

    std::filesystem::path dir_;
    std::unique_ptr<TraceRun> run_;
};

}  // namespace apcgate::ctf_test
