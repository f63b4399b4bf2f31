// How fast the perf reader turns ring bytes into model events, without the kernel: a stream
// of sched_switch samples (the bulk of a busy capture) and of cpu-clock samples with call
// stacks, through the tokenizer, parser, normalizer and mapper, as one drain does.
#include <benchmark/benchmark.h>

#include <vector>

#include "collectors/perf/event_mapper.hpp"
#include "collectors/perf/record_normalizer.hpp"
#include "collectors/perf/record_parser.hpp"
#include "collectors/perf/record_tokenizer.hpp"
#include "perf_ring_streams.hpp"

namespace pf = apcgate::collectors::perf;
using apcgate::perf_bench::sample_stream;
using apcgate::perf_bench::switch_stream;

namespace {

constexpr std::uint64_t kSideband =
    pf::kSampleIdentifier | pf::kSampleTid | pf::kSampleTime | pf::kSampleCpu;

void drain(benchmark::State& state, const std::vector<std::uint8_t>& bytes, int records) {
    pf::LayoutTable layouts;
    layouts.add(2, kSideband | pf::kSampleRaw);
    layouts.add(3, kSideband | pf::kSampleIp | pf::kSamplePeriod | pf::kSampleCallchain);
    pf::TracepointFormat f;
    f.name = "sched_switch";
    f.fields = {{"prev_comm", "char", 8, 16, false, false},
                {"prev_pid", "int", 24, 4, true, false},
                {"prev_state", "long", 32, 8, true, false},
                {"next_comm", "char", 40, 16, false, false},
                {"next_pid", "int", 56, 4, true, false}};
    f.print_fmt = "{ 0x00000080, \"I\" }";
    pf::NormalizerConfig config;
    config.sched_switch = *pf::SchedSwitchLayout::from(f);
    apcgate::collectors::ingest::IngestReport report("perf", "bench");
    pf::RecordNormalizer normalizer(config, report);
    normalizer.set_role(2, pf::EventRole::SchedSwitch);
    normalizer.set_role(3, pf::EventRole::ClockSampler);
    pf::RecordParser parser(layouts);
    pf::EventMapper mapper(nullptr, 3);
    mapper.seed_process(100, "/usr/bin/app", {{0x400000, 0x500000, 0, "/usr/bin/app"}});
    mapper.seed_thread(100, 100, "ping");
    mapper.seed_thread(101, 100, "pong");
    std::vector<pf::TraceEvent> events;
    std::vector<apcgate::model::Event> out;
    for (auto _ : state) {
        events.clear();
        out.clear();
        pf::RecordTokenizer tokens(bytes, 0);
        while (auto raw = tokens.next()) {
            auto rec = parser.parse(*raw, "bench");
            normalizer.add(std::move(rec).value(), raw->offset + 8, "bench", events);
        }
        for (const auto& e : events)
            mapper.map(e, static_cast<apcgate::model::Nanos>(pf::time_of(e)), out);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * records);
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes.size()));
}

void BM_SchedSwitchRecords(benchmark::State& state) {
    const auto bytes = switch_stream(10000);
    drain(state, bytes, 10000);
}
BENCHMARK(BM_SchedSwitchRecords);

void BM_CallStackSamples(benchmark::State& state) {
    const auto bytes = sample_stream(10000, static_cast<int>(state.range(0)));
    drain(state, bytes, 10000);
}
BENCHMARK(BM_CallStackSamples)->Arg(4)->Arg(32);

}  // namespace
