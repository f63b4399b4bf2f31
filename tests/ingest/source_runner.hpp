// Runs one source in-process the way `apcgate convert` drives it — declare, describe, enable
// every declared counter (or a chosen few), zero the timeline at time_origin(), start, poll until
// finished, stop — and keeps what came out for a test to look at: the events, the counter name
// behind each sample's key, each poll's size and watermark, and (for ingest sources) the report.
// Header-only and generic: SourceRun<S> works on any collectors::Source; the ingest-only parts
// (time_origin(), report()) are there when S is a collectors::ingest::IngestSource.
//
//   auto run = ingest_test::run_opened(FooSource::open(...));   // Result<unique_ptr<FooSource>>
//   EXPECT_EQ(run->values("Foo_counter"), ...);
//   run->capture();                                              // a second capture, read afresh
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "collectors/ingest/ingest_report.hpp"
#include "collectors/ingest/ingest_source.hpp"
#include "collectors/source.hpp"
#include "protocol/model/counter_catalog.hpp"
#include "protocol/model/event.hpp"

namespace apcgate::ingest_test {

// A path in this test process's own temporary directory; the directory (and everything in it)
// is removed when the process exits, so parallel ctest runs never share or leak files.
inline std::filesystem::path temp_file(const std::string& name) {
    struct Dir {
        std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("apcgate_ingest_test_" + std::to_string(::getpid()));
        Dir() { std::filesystem::create_directories(path); }
        ~Dir() {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
        Dir(const Dir&) = delete;
        Dir& operator=(const Dir&) = delete;
    };
    static const Dir kDir;
    return kDir.path / name;
}

// Writes (or rewrites) temp_file(name) with `bytes` and returns its path.
inline std::filesystem::path write_temp(const std::string& name,
                                        const std::vector<std::uint8_t>& bytes) {
    auto path = temp_file(name);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),  // NOLINT: bytes to a stream
              static_cast<std::streamsize>(bytes.size()));
    return path;
}

template <typename S>
inline constexpr bool kIsIngestSource = std::is_base_of_v<collectors::ingest::IngestSource, S>;

template <typename S = collectors::ingest::IngestSource>
struct SourceRun {
    static_assert(std::is_base_of_v<collectors::Source, S>, "SourceRun runs a collectors::Source");

    std::unique_ptr<S> source;
    model::CounterCatalog catalog;
    model::TargetInfo target;
    model::CaptureSettings settings;
    model::CaptureCounters counters;
    // The zero of the last capture (time_origin() for ingest sources, 0 for other sources).
    model::Nanos zero = 0;
    // Everything the last capture emitted (polls, then stop), and per poll its size and watermark.
    std::vector<model::Event> events;
    std::vector<std::size_t> poll_sizes;
    std::vector<model::Nanos> watermarks;
    // SpanRun events the last capture emitted, and the annotations they held (`events` holds
    // those annotations one by one).
    std::size_t span_runs = 0;
    std::size_t span_run_items = 0;

    // The counter name a sample's key stands for in this capture ("?" for an unknown key).
    [[nodiscard]] std::string counter(model::CounterKey key) const {
        const auto* k = counters.by_key(key);
        return k ? k->counter : "?";
    }
    // Every event of one type, in emitted order.
    template <typename T>
    [[nodiscard]] std::vector<T> all() const {
        std::vector<T> out;
        for (const auto& e : events)
            if (const T* v = std::get_if<T>(&e)) out.push_back(*v);
        return out;
    }
    // Every annotation with a body of type T, with its body.
    template <typename T>
    [[nodiscard]] std::vector<std::pair<model::Annotation, T>> annotations() const {
        std::vector<std::pair<model::Annotation, T>> out;
        for (const auto& a : all<model::Annotation>())
            if (const T* b = std::get_if<T>(&a.body)) out.emplace_back(a, *b);
        return out;
    }
    // The values of one counter, in emitted order.
    [[nodiscard]] std::vector<std::int64_t> values(const std::string& name) const {
        std::vector<std::int64_t> out;
        for (const auto& s : all<model::CounterSample>())
            if (counter(s.key) == name) out.push_back(s.value);
        return out;
    }

    [[nodiscard]] const collectors::ingest::IngestReport& report() const requires
        kIsIngestSource<S> {
        return source->report();
    }
    // One record kind's statistics (all zero when the kind was never counted).
    [[nodiscard]] collectors::ingest::RecordStats stats(std::string_view kind) const requires
        kIsIngestSource<S> {
        const auto& kinds = report().kinds();
        const auto it = kinds.find(kind);
        return it == kinds.end() ? collectors::ingest::RecordStats{} : it->second;
    }

    // Enables every declared counter, or only those named in `enabled` when it is not empty.
    void enable(const std::vector<std::string>& enabled = {}) {
        model::Configuration config;
        for (const auto& c : catalog.counters())
            if (enabled.empty() ||
                std::find(enabled.begin(), enabled.end(), c.counter) != enabled.end())
                config.counters.push_back({c.counter, c.event, {}, {}});
        counters = model::CaptureCounters::assign(catalog, config);
    }

    // Runs one capture to the end: start (which re-reads the input), poll until finished, stop.
    // Call it again for another capture of the same source.
    void capture(const std::vector<std::string>& enabled = {}) {
        enable(enabled);
        events.clear();
        poll_sizes.clear();
        watermarks.clear();
        span_runs = 0;
        span_run_items = 0;
        if constexpr (kIsIngestSource<S>) zero = source->time_origin();
        const collectors::CaptureContext ctx{settings, counters, zero};
        const Status st = source->start(ctx);
        ASSERT_TRUE(st.ok()) << st.error().to_string();
        // Bounded so that a source that never says finished fails the test instead of hanging.
        bool finished = false;
        // Each poll's SpanRuns and SampleRuns as the single events they stand for (tests look
        // for those).
        std::vector<model::Event> polled;
        const auto expand = [this](std::vector<model::Event>& batch) {
            for (const auto& e : batch) {
                if (const auto* run = std::get_if<model::SpanRun>(&e)) {
                    ++span_runs;
                    span_run_items += run->pending();
                }
            }
            model::expand_span_runs(batch);
            model::expand_sample_runs(batch);
        };
        for (int i = 0; i < 1'000'000 && !finished; ++i) {
            polled.clear();
            const auto r = source->poll(0, polled);
            expand(polled);
            poll_sizes.push_back(polled.size());
            std::move(polled.begin(), polled.end(), std::back_inserter(events));
            watermarks.push_back(r.watermark);
            finished = r.finished;
        }
        EXPECT_TRUE(finished) << "the source never said finished";
        polled.clear();
        source->stop(0, polled);
        expand(polled);
        std::move(polled.begin(), polled.end(), std::back_inserter(events));
    }
};

// Declares, describes and runs one capture of an opened source; null (and a failed expectation
// carrying the error) when opening failed.
template <typename S>
std::unique_ptr<SourceRun<S>> run_opened(Result<std::unique_ptr<S>> opened,
                                         const std::vector<std::string>& enabled = {}) {
    EXPECT_TRUE(opened.ok()) << (opened.ok() ? "" : opened.error().to_string());
    if (!opened.ok()) return nullptr;
    auto run = std::make_unique<SourceRun<S>>();
    run->source = std::move(opened).value();
    run->source->declare(run->catalog);
    run->source->describe(run->target);
    run->capture(enabled);
    return run;
}

// Every event's timestamp is >= the one before it, and >= the previous poll's watermark.
template <typename S>
void expect_time_order(const SourceRun<S>& run) {
    model::Nanos last = INT64_MIN;
    std::size_t at = 0;
    for (std::size_t p = 0; p < run.poll_sizes.size(); ++p) {
        for (std::size_t i = 0; i < run.poll_sizes[p]; ++i, ++at) {
            const model::Nanos ts = model::timestamp_of(run.events[at]);
            EXPECT_GE(ts, last) << "event " << at;
            last = ts;
            if (p > 0) {
                EXPECT_GE(ts, run.watermarks[p - 1]) << "event " << at << " of poll " << p;
            }
        }
    }
}

}  // namespace apcgate::ingest_test
