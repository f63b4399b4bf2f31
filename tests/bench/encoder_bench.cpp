// APC encoder and decoder throughput on a realistic mix: per 1 ms tick, 6 block counters on each
// of 8 cores, a scheduler switch and an activity switch per core, a backtrace of depth 8 on two
// cores, a single-delivery counter, and an annotation every 10 ticks. And a converter's spans,
// as SpanRuns and as single annotations.
#include <benchmark/benchmark.h>

#include <string>
#include <utility>
#include <vector>

#include "protocol/apc/capture_stream.hpp"
#include "protocol/apc/encoder.hpp"
#include "protocol/model/counter_catalog.hpp"

namespace apcgate::apc {
namespace {

constexpr int kCores = 8;
constexpr int kBlockCounters = 6;

class CountingSink : public FrameSink {
  public:
    void frame(std::span<const std::uint8_t> body) override { bytes += body.size(); }
    std::uint64_t bytes = 0;
};

// Frames with their local-capture length prefixes, for the decoder benchmark.
class FileSink : public FrameSink {
  public:
    void frame(std::span<const std::uint8_t> body) override {
        const auto n = static_cast<std::uint32_t>(body.size());
        for (int i = 0; i < 4; ++i) file.push_back(static_cast<std::uint8_t>(n >> (8 * i)));
        file.insert(file.end(), body.begin(), body.end());
    }
    std::vector<std::uint8_t> file;
};

struct Workload {
    model::CounterCatalog catalog;
    model::CaptureCounters counters;
    std::vector<model::Event> events;

    Workload() {
        for (int i = 0; i < kBlockCounters; ++i) {
            model::CounterSpec s;
            s.counter = "pmu_" + std::to_string(i);
            catalog.add(std::move(s));
        }
        model::CounterSpec freq;
        freq.counter = "cpu_freq";
        freq.delivery = model::Delivery::Single;
        catalog.add(std::move(freq));
        model::CounterSpec act;
        act.counter = "sched_activity";
        act.cls = model::CounterClass::Activity;
        catalog.add(std::move(act));
        counters = model::CaptureCounters::assign(catalog, catalog.defaults());
        const model::CounterKey freq_key = *counters.key("cpu_freq");
        const model::CounterKey act_key = *counters.key("sched_activity");

        std::uint32_t rng = 12345;
        auto next = [&rng] { return rng = rng * 1664525u + 1013904223u; };
        for (int tick = 0; tick < 2000; ++tick) {
            const model::Nanos ts = tick * 1'000'000LL;
            for (int core = 0; core < kCores; ++core) {
                const int tid = 1000 + static_cast<int>(next() % 500);
                for (int k = 0; k < kBlockCounters; ++k)
                    events.emplace_back(model::CounterSample{
                        ts, core, 3 + k, static_cast<std::int64_t>(next() % 100000),
                        k < 2 ? tid : -1});
                events.emplace_back(
                    model::SchedSwitch{ts + 10, core, tid, model::WaitState::Other});
                events.emplace_back(model::ActivitySwitch{ts + 10, core, act_key, 1, tid,
                                                          model::WaitState::Contention});
                if (core < 2) {
                    model::Backtrace bt{ts + 20, core, 42, tid, tid, {}};
                    for (int d = 0; d < 8; ++d)
                        bt.frames.push_back({static_cast<std::int32_t>(2 + next() % 50),
                                             static_cast<std::int64_t>(next() % 0x1000000)});
                    events.emplace_back(std::move(bt));
                }
            }
            events.emplace_back(model::CounterSample{ts + 30, 0, freq_key, 1'800'000, -1});
            if (tick % 10 == 0)
                events.emplace_back(
                    model::Annotation{ts + 40, 0, 1000,
                                      model::StringAnnotation{1, model::Rgb{255, 0, 0},
                                                              "frame " + std::to_string(tick)}});
        }
    }
};

const Workload& workload() {
    static const Workload kWorkload;
    return kWorkload;
}

void BM_Encode(benchmark::State& state) {
    const Workload& w = workload();
    CountingSink sink;
    for (auto _ : state) {
        Encoder enc(w.counters, sink);
        enc.summary(SummaryInfo{});
        for (const auto& e : w.events) enc.add(e);
        enc.flush();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * w.events.size()));
    state.SetBytesProcessed(static_cast<std::int64_t>(sink.bytes));
}
BENCHMARK(BM_Encode)->Unit(benchmark::kMillisecond);

void BM_Decode(benchmark::State& state) {
    const Workload& w = workload();
    FileSink sink;
    Encoder enc(w.counters, sink);
    enc.summary(SummaryInfo{});
    for (const auto& e : w.events) enc.add(e);
    enc.flush();
    std::size_t messages = 0;
    for (auto _ : state) {
        const DecodedCapture d = decode_capture(sink.file);
        messages = 0;
        for (const auto& f : d.frames) messages += f.messages.size();
        benchmark::DoNotOptimize(messages);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * messages));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * sink.file.size()));
}
BENCHMARK(BM_Decode)->Unit(benchmark::kMillisecond);

// A converter's spans: 1 M span annotations (half of them a span's end) on 4 threads, as
// SpanRuns of 2048 items and, for comparison, as one Annotation event each.
std::vector<model::Event> span_events(bool as_runs) {
    std::vector<model::Event> events;
    model::SpanRun run;
    for (int i = 0; i < 1'000'000; ++i) {
        const std::string text = i % 2 == 0 ? "namespace::function_" + std::to_string(i % 97) : "";
        run.add(1'000'000'000 + 37LL * i, i % 2, 1000 + i % 4, 1 + (i / 2) % 8, text);
        if (run.pending() == 2048) events.emplace_back(std::exchange(run, model::SpanRun{}));
    }
    if (!run.empty()) events.emplace_back(std::move(run));
    if (!as_runs) model::expand_span_runs(events);
    return events;
}

void encode_spans(benchmark::State& state, bool as_runs) {
    const Workload& w = workload();
    const std::vector<model::Event> events = span_events(as_runs);
    CountingSink sink;
    for (auto _ : state) {
        Encoder enc(w.counters, sink);
        enc.summary(SummaryInfo{});
        for (const auto& e : events) enc.add(e);
        enc.flush();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * 1'000'000));
    state.SetBytesProcessed(static_cast<std::int64_t>(sink.bytes));
}

void BM_EncodeSpanRuns(benchmark::State& state) {
    encode_spans(state, true);
}
BENCHMARK(BM_EncodeSpanRuns)->Unit(benchmark::kMillisecond);

void BM_EncodeSpanAnnotations(benchmark::State& state) {
    encode_spans(state, false);
}
BENCHMARK(BM_EncodeSpanAnnotations)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace apcgate::apc
