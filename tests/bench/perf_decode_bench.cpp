// How fast the perf reader turns ring bytes into model events, without the kernel: a stream
// of sched_switch samples (the bulk of a busy capture) and of cpu-clock samples with call
// stacks, through the tokenizer, parser, normalizer and mapper, as one drain does.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "collectors/perf/event_mapper.hpp"
#include "collectors/perf/record_normalizer.hpp"
#include "collectors/perf/record_parser.hpp"
#include "collectors/perf/record_tokenizer.hpp"

namespace pf = apcgate::collectors::perf;

namespace {

constexpr std::uint64_t kSideband =
    pf::kSampleIdentifier | pf::kSampleTid | pf::kSampleTime | pf::kSampleCpu;

void put(std::vector<std::uint8_t>& b, std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// N sched_switch samples alternating between two threads, laid out as this kernel writes them.
std::vector<std::uint8_t> switch_stream(int n) {
    std::vector<std::uint8_t> b;
    for (int i = 0; i < n; ++i) {
        const std::uint32_t prev = 100 + (i & 1), next = 101 - (i & 1);
        std::vector<std::uint8_t> raw(64, 0);
        std::memcpy(raw.data() + 8, "ping", 4);
        std::memcpy(raw.data() + 24, &prev, 4);
        raw[32] = 1;  // prev_state S
        std::memcpy(raw.data() + 40, "pong", 4);
        std::memcpy(raw.data() + 56, &next, 4);
        put(b, 9, 4);
        put(b, 0, 2);
        put(b, 8 + 8 + 8 + 8 + 8 + 4 + 64 + 4, 2);
        put(b, 2, 8);  // identifier
        put(b, prev, 4);
        put(b, prev, 4);
        put(b, 1000 + static_cast<std::uint64_t>(i), 8);
        put(b, static_cast<std::uint64_t>(i & 1), 8);
        put(b, 64, 4);
        b.insert(b.end(), raw.begin(), raw.end());
        put(b, 0, 4);  // padding to 8
    }
    return b;
}

std::vector<std::uint8_t> sample_stream(int n, int depth) {
    std::vector<std::uint8_t> b;
    for (int i = 0; i < n; ++i) {
        put(b, 9, 4);
        put(b, 2, 2);  // user
        put(b, static_cast<std::uint64_t>(8 + 48 + 8 + 8 * (depth + 1)), 2);
        put(b, 3, 8);
        put(b, 0x401000 + static_cast<std::uint64_t>(i % 512), 8);
        put(b, 100, 4);
        put(b, 100, 4);
        put(b, 1000 + static_cast<std::uint64_t>(i), 8);
        put(b, 0, 8);
        put(b, 1'000'000, 8);
        put(b, static_cast<std::uint64_t>(depth + 1), 8);
        put(b, static_cast<std::uint64_t>(-512), 8);
        for (int d = 0; d < depth; ++d) put(b, 0x401000 + static_cast<std::uint64_t>(d * 64), 8);
    }
    return b;
}

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
