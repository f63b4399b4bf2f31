// The Barman source end to end in-process: header and records to model events (counter
// deltas, backtraces against mmap layouts, activity, idle, annotations, names), the catalog
// it declares, bounded polls, timestamp order, bad input kept-then-reported, and a file
// rewritten between captures.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "collectors/barman/barman_ingest.hpp"
#include "collectors/barman/barman_source.hpp"
#include "protocol/wire/byte_text.hpp"
#include "store_builder.hpp"
#include "tests/ingest/source_runner.hpp"
#include "xml/documents.hpp"

namespace apcgate::barman_test {
namespace {

using collectors::barman::BarmanSource;
using ingest_test::write_temp;

// Opens `path` as `apcgate convert` would and runs one capture with every counter enabled.
std::unique_ptr<ingest_test::SourceRun<BarmanSource>> run_source(
    const std::filesystem::path& path) {
    return ingest_test::run_opened(BarmanSource::open({path, {}}));
}

StoreBuilder rich_builder(StoreConfig c = {}) {
    c.custom_series = 2;
    StoreBuilder b(c);
    b.core(0, 0x410fd034, {0xffffffffU, 0x08});
    b.core(1, 0x410fd070, {0x11, 0x03});  // a Cortex-A57
    b.task(1, "main");
    b.task(2, "worker");
    b.mmap(1, 0x10000, 0x1000, 0x200, "fw.elf");
    b.mmap(2, 0x20000, 0x1000, 0, "lib.elf");
    b.chart("Queue", 1, 2, 0x08);
    b.series(0, "depth", "items", 0x00112233, 2.0, 3, 4, 0);
    b.series(0, "drops", "", 0xffffffffU, 1.0, 1, 1, 1);
    return b;
}

// Every byte order and pointer size the magic allows decodes to the same events.
struct Target {
    bool big_endian;
    unsigned pointer_size;
};
class BarmanTargets : public ::testing::TestWithParam<Target> {};

TEST_P(BarmanTargets, MapsRecordsToModelEvents) {
    StoreConfig config;
    config.big_endian = GetParam().big_endian;
    config.pointer_size = GetParam().pointer_size;
    StoreBuilder b = rich_builder(config);
    b.annotation(0, 5, 1, 3, 0, 4, 0, "Group");
    b.annotation(0, 5, 1, 2, 9, 4, 0, "Chan");
    b.task_switch(0, 10, 1, 0);
    b.sample(0, 10, 1, 0x10010, {100, 50}, {{1, 3}});
    b.sample(1, 12, 2, 0x20008, {7, 9});
    b.sample(0, 20, 1, std::nullopt, {250, 80});
    b.custom(1, 21, 2, 0, 42);
    b.annotation(0, 22, 1, 0, 9, 0, 0x1bff0000, "span");
    b.annotation(0, 23, 1, 1, 0, 0, 0, "mark");
    b.halt(1, 30, true);
    b.halt(1, 35, false);
    b.task_switch(1, 40, 1, 1);
    b.sample(1, 45, 1, 0x99999, {17, 20});  // pc in no layout
    auto run = run_source(write_temp(
        "rich" + std::to_string(config.big_endian) + std::to_string(config.pointer_size) + ".raw",
        b.linear(4096)));
    ASSERT_TRUE(run);
    const auto& report = run->source->report();
    EXPECT_TRUE(report.complete());
    EXPECT_EQ(report.problem_count(), 0U);

    // PMU: deltas of the running values per core and counter, from 0.
    EXPECT_EQ(run->values("ARMv8_Cortex_A53_ccnt"), (std::vector<std::int64_t>{100, 150}));
    EXPECT_EQ(run->values("ARMv8_Cortex_A53_event_0x08"), (std::vector<std::int64_t>{50, 30}));
    EXPECT_EQ(run->values("ARMv8_Cortex_A57_event_0x11"), (std::vector<std::int64_t>{7, 10}));
    EXPECT_EQ(run->values("ARMv8_Cortex_A57_event_0x03"), (std::vector<std::int64_t>{9, 11}));
    // Custom series: sampled and recorded values as they are.
    EXPECT_EQ(run->values("Barman_Queue_drops"), (std::vector<std::int64_t>{3}));
    EXPECT_EQ(run->values("Barman_Queue_depth"), (std::vector<std::int64_t>{42}));

    const auto bts = run->all<model::Backtrace>();
    ASSERT_EQ(bts.size(), 3U);
    const auto cookies = run->all<model::CookieName>();
    ASSERT_EQ(cookies.size(), 2U);
    EXPECT_EQ(cookies[0].name, "fw.elf");
    EXPECT_EQ(cookies[0].core, 0);
    EXPECT_EQ(bts[0].frames.at(0).cookie, cookies[0].cookie);
    EXPECT_EQ(bts[0].frames.at(0).offset, 0x10 + 0x200);  // pc - base + image offset
    EXPECT_EQ(bts[0].tid, 1);
    EXPECT_EQ(cookies[1].name, "lib.elf");
    EXPECT_EQ(bts[1].frames.at(0).offset, 8);
    EXPECT_EQ(bts[2].frames.at(0).cookie, -1);
    EXPECT_EQ(bts[2].frames.at(0).offset, 0x99999);

    const auto switches = run->all<model::ActivitySwitch>();
    ASSERT_EQ(switches.size(), 2U);
    EXPECT_EQ(switches[0].tid, 1);
    EXPECT_EQ(switches[0].activity, 1);
    EXPECT_EQ(switches[0].wait, model::WaitState::Contention);
    EXPECT_EQ(switches[1].wait, model::WaitState::Io);
    EXPECT_EQ(switches[1].core, 1);
    EXPECT_EQ(run->counter(switches[0].key), "Barman_task_activity");

    const auto idle = run->all<model::Idle>();
    ASSERT_EQ(idle.size(), 2U);
    EXPECT_EQ(idle[0].state, 0);
    EXPECT_EQ(idle[1].state, -1);
    EXPECT_EQ(idle[1].ts, 35);

    const auto notes = run->all<model::Annotation>();
    ASSERT_EQ(notes.size(), 4U);
    EXPECT_EQ(std::get<model::GroupName>(notes[0].body).name, "Group");
    EXPECT_EQ(std::get<model::ChannelName>(notes[1].body).group, 4);
    const auto& s = std::get<model::StringAnnotation>(notes[2].body);
    EXPECT_EQ(s.channel, 9);
    EXPECT_EQ(s.text, "span");
    EXPECT_EQ(s.color, (model::Rgb{0xff, 0, 0}));
    EXPECT_EQ(std::get<model::MarkerAnnotation>(notes[3].body).color, std::nullopt);  // cyclic

    const auto names = run->all<model::ThreadName>();
    ASSERT_EQ(names.size(), 2U);
    EXPECT_EQ(names[1].name, "worker");
    const auto cores = run->all<model::CoreName>();
    ASSERT_EQ(cores.size(), 2U);
    EXPECT_EQ(cores[0].name, "Cortex-A53");
    EXPECT_EQ(cores[1].cpuid, 0x41d07);

    EXPECT_EQ(run->target.name, "test-target");
    EXPECT_EQ(run->target.cores, 2);
    EXPECT_EQ(run->target.cpuid, 0x41d03U);
    EXPECT_EQ(run->target.sample_rate_hz, 1000);
}

INSTANTIATE_TEST_SUITE_P(EndianAndPointerSize, BarmanTargets,
                         ::testing::Values(Target{false, 8}, Target{true, 8}, Target{false, 4},
                                           Target{true, 4}),
                         [](const auto& param_info) {
                             return std::string(param_info.param.big_endian ? "BE" : "LE") +
                                    std::to_string(param_info.param.pointer_size * 8);
                         });

TEST(BarmanSource, StoreWithoutTaskInfosOrCustomCharts) {
    // An agent built with BM_CONFIG_MAX_TASK_INFOS 0 and no custom counters: records carry no
    // task id, there is no activity counter and no custom category.
    StoreConfig c;
    c.max_task_infos = 0;
    c.custom_series = 0;
    c.big_endian = true;
    StoreBuilder b(c);
    b.core(0, 0x410fd034, {0xffffffffU});
    b.mmap(0, 0x1000, 0x100, 0, "fw.elf");
    b.sample(0, 10, 0, 0x1010, {5});
    b.sample(0, 20, 0, std::nullopt, {12});
    b.annotation(0, 21, 0, 0, 2, 0, 0, "no task");
    b.task_switch(0, 22, 9, 0);  // not valid without task infos, but still decodable
    auto run = run_source(write_temp("notasks.raw", b.linear(512)));
    ASSERT_TRUE(run);
    EXPECT_EQ(run->catalog.find("Barman_task_activity"), nullptr);
    EXPECT_EQ(run->values("ARMv8_Cortex_A53_ccnt"), (std::vector<std::int64_t>{5, 7}));
    const auto bts = run->all<model::Backtrace>();
    ASSERT_EQ(bts.size(), 1U);
    EXPECT_EQ(bts[0].tid, 0);
    EXPECT_EQ(bts[0].frames.at(0).offset, 0x10);
    const auto notes = run->all<model::Annotation>();
    ASSERT_EQ(notes.size(), 1U);
    EXPECT_EQ(notes[0].tid, 0);
    EXPECT_TRUE(run->all<model::ThreadName>().empty());
    EXPECT_TRUE(run->all<model::ActivitySwitch>().empty());
    EXPECT_EQ(run->source->report().kinds().at("task switch").skipped, 1U);
    EXPECT_TRUE(run->source->report().complete());
}

TEST(BarmanSource, DeclaresCountersSetsAndCustomCategories) {
    StoreBuilder b = rich_builder();
    auto run = run_source(write_temp("catalog.raw", b.linear(256)));
    ASSERT_TRUE(run);
    const auto* ccnt = run->catalog.find("ARMv8_Cortex_A53_ccnt");
    ASSERT_NE(ccnt, nullptr);
    EXPECT_TRUE(ccnt->per_cpu);
    EXPECT_EQ(ccnt->category, "Cortex-A53");
    EXPECT_EQ(ccnt->event, 0x11U);
    const auto* inst = run->catalog.find("ARMv8_Cortex_A53_event_0x08");
    ASSERT_NE(inst, nullptr);
    EXPECT_EQ(inst->name, "Instructions retired");
    EXPECT_EQ(inst->cls, model::CounterClass::Delta);
    ASSERT_EQ(run->catalog.sets().size(), 2U);
    EXPECT_EQ(run->catalog.sets()[0].name, "ARMv8_Cortex_A53_cnt");
    EXPECT_EQ(run->catalog.sets()[0].count, 1);
    EXPECT_EQ(run->catalog.sets()[1].name, "ARMv8_Cortex_A57_cnt");
    EXPECT_EQ(run->catalog.sets()[1].count, 2);
    const auto* depth = run->catalog.find("Barman_Queue_depth");
    ASSERT_NE(depth, nullptr);
    EXPECT_EQ(depth->category, "Queue");
    EXPECT_EQ(depth->cls, model::CounterClass::Absolute);
    EXPECT_EQ(depth->display, model::Display::Maximum);
    EXPECT_EQ(depth->units, "items");
    EXPECT_DOUBLE_EQ(depth->multiplier, 2.0);
    EXPECT_EQ(depth->color, 0x112233U);
    EXPECT_EQ(depth->series_composition, "stacked");
    EXPECT_EQ(depth->rendering_type, "line");
    EXPECT_TRUE(depth->per_cpu);
    EXPECT_EQ(depth->delivery, model::Delivery::Single);
    EXPECT_FALSE(run->catalog.find("Barman_Queue_drops")->color.has_value());

    const std::string events = xml::write_events(run->catalog);
    EXPECT_NE(events.find("counter_set=\"ARMv8_Cortex_A53_cnt\""), std::string::npos) << events;
    EXPECT_NE(events.find("name=\"L1 data cache refills\""), std::string::npos)
        << events;  // 0x03 on the A57
    EXPECT_NE(events.find("<category name=\"Queue\""), std::string::npos) << events;
    auto parsed = xml::parse_events(events);
    ASSERT_TRUE(parsed) << events;
}

TEST(BarmanSource, WrappedStoreUsesFirstReadAsBaseline) {
    StoreBuilder b = rich_builder();
    for (std::uint64_t i = 1; i <= 40; ++i) b.sample(0, i, 1, std::nullopt, {i * 10, i}, {});
    auto run = run_source(write_temp("wrapped.raw", b.circular(512)));
    ASSERT_TRUE(run);
    const auto ccnt = run->values("ARMv8_Cortex_A53_ccnt");
    ASSERT_GT(ccnt.size(), 3U);
    // The oldest stored read (40 - n) has nothing before it: every value is one step.
    for (auto v : ccnt) EXPECT_EQ(v, 10);
    EXPECT_EQ(run->all<model::CounterSample>().size(), 2 * ccnt.size());
}

TEST(BarmanSource, PollsAreBoundedAndTimestampsNeverGoBack) {
    StoreConfig c;
    c.max_cores = 4;
    StoreBuilder b(c);
    for (std::uint32_t core = 0; core < 4; ++core) b.core(core, 0x410fd034, {0xffffffffU, 1, 2, 3});
    // Cores commit slightly out of timestamp order, as concurrent writers do.
    for (std::uint64_t i = 0; i < 40000; ++i) {
        const std::uint32_t core = static_cast<std::uint32_t>(i % 4);
        const std::uint64_t ts = 1000 + i * 10 - (core == 3 ? 25 : 0);
        b.sample(core, ts, 1, std::nullopt, {i, i, i, i});
    }
    auto run = run_source(write_temp("big.raw", b.linear(std::uint64_t{40000} * 64)));
    ASSERT_TRUE(run);
    EXPECT_TRUE(run->source->report().complete());
    EXPECT_GT(run->poll_sizes.size(), 2U);
    for (auto n : run->poll_sizes)
        EXPECT_LE(n, collectors::barman::BarmanSource::kMaxEventsPerPoll + 64);
    // No event goes back in time, within a poll or behind the previous poll's watermark.
    ingest_test::expect_time_order(*run);
    // Linear from the start: every read has a delta.
    EXPECT_EQ(run->all<model::CounterSample>().size(), 40000U * 4);
    for (std::size_t i = 1; i < run->watermarks.size(); ++i)
        EXPECT_GE(run->watermarks[i], run->watermarks[i - 1]);
}

// The header's names are at the earliest record's time: they stay before every record's events
// when the store's first record is not its earliest.
TEST(BarmanSource, NamesComeFirstWhenTheFirstRecordIsNotTheEarliest) {
    StoreConfig c;
    c.max_cores = 2;
    StoreBuilder b(c);
    for (std::uint32_t core = 0; core < 2; ++core) b.core(core, 0x410fd034, {0xffffffffU});
    b.task(1, "main");
    b.sample(0, 2000, 1, std::nullopt, {10});
    b.sample(1, 1000, 1, std::nullopt, {10});  // committed after core 0's later record
    b.sample(0, 3000, 1, std::nullopt, {20});
    auto run = run_source(write_temp("first_not_earliest.raw", b.linear(1024)));
    ASSERT_TRUE(run);
    ingest_test::expect_time_order(*run);
    ASSERT_FALSE(run->events.empty());
    EXPECT_TRUE(std::holds_alternative<model::CoreName>(run->events.front()));
    EXPECT_EQ(run->all<model::ThreadName>().size(), 1U);
}

// A store far out of order (it breaks the agent's rule: a corrupt or foreign writer) is still
// released in time order, whole, and each record's events keep their order; the source's
// ordering does not become quadratic on it (the poll sizes stay bounded).
TEST(BarmanSource, ScrambledStoreIsReleasedInOrderAndWhole) {
    StoreConfig c;
    c.max_cores = 2;
    StoreBuilder b(c);
    for (std::uint32_t core = 0; core < 2; ++core) b.core(core, 0x410fd034, {0xffffffffU, 1, 2});
    constexpr std::uint64_t kRecords = 30000;
    for (std::uint64_t i = 0; i < kRecords; ++i) {
        const std::uint64_t ts = 1000 + ((i * 7919) % kRecords) * 10;  // a permutation
        b.sample(static_cast<std::uint32_t>(i % 2), ts, 1, std::nullopt, {i * 3, i * 3, i * 3});
    }
    auto run = run_source(write_temp("scrambled.raw", b.linear(kRecords * 64)));
    ASSERT_TRUE(run);
    EXPECT_TRUE(run->source->report().complete());
    ingest_test::expect_time_order(*run);
    const auto samples = run->all<model::CounterSample>();
    ASSERT_EQ(samples.size(), kRecords * 3);
    // A record's three counters leave together, in slot order (the same keys in the same
    // order for every record of a core).
    std::map<std::int32_t, std::vector<model::CounterKey>> slots;
    for (std::size_t i = 0; i + 2 < samples.size(); i += 3) {
        const std::vector<model::CounterKey> keys{samples[i].key, samples[i + 1].key,
                                                  samples[i + 2].key};
        EXPECT_EQ(samples[i].ts, samples[i + 2].ts) << i;
        EXPECT_EQ(samples[i].core, samples[i + 2].core) << i;
        EXPECT_EQ(slots.try_emplace(samples[i].core, keys).first->second, keys) << i;
    }
}

// Every record names its core; the capture declares the cores with PMU settings and any other
// core below max_cores a record names, and a record on a core past max_cores (a corrupt field:
// issue 27's flipped byte gave a custom counter on core 655,361 of a 2-core store) is a bad
// record naming its offset, kind and field, whatever its type, and puts nothing on that core.
TEST(BarmanSource, RecordsOnCoresPastMaxCoresAreBadAndOtherCoresAreDeclared) {
    StoreConfig c;
    c.max_cores = 4;
    c.custom_series = 2;
    StoreBuilder b(c);
    b.core(0, 0x410fd034, {0xffffffffU, 0x08});
    b.core(1, 0x410fd034, {0xffffffffU, 0x08});
    b.chart("Queue", 1, 2, 0x08);
    b.series(0, "depth", "items", 0x00112233, 2.0, 3, 4, 0);
    b.series(0, "drops", "", 0xffffffffU, 1.0, 1, 1, 1);
    b.sample(0, 10, 1, std::nullopt, {1, 1});
    b.annotation(3, 11, 1, 1, 0, 0, 0, "from core 3");  // no PMU settings, below max_cores
    b.custom(0xA0001, 12, 1, 0, 7);                     // core 655,361
    b.halt(4, 13, true);                                // core 4 = max_cores
    b.custom(1, 14, 1, 0, 8);
    auto loaded_file = b.linear(2048);
    const auto path = write_temp("cores.raw", loaded_file);
    auto run = run_source(path);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->target.cores, 4);
    const auto& report = run->source->report();
    EXPECT_TRUE(report.complete());
    ASSERT_EQ(report.problems().size(), 2U);
    auto loaded = collectors::barman::BarmanSource::load(path);
    ASSERT_TRUE(loaded);
    for (const auto& p : report.problems()) {
        EXPECT_EQ(p.field, "core") << p.to_string();
        ASSERT_TRUE(p.offset.has_value());
        EXPECT_GT(*p.offset, loaded->header.store.record_area);
    }
    EXPECT_EQ(report.problems()[0].record, "custom counter value");
    EXPECT_NE(report.problems()[0].message.find("core 655361 is not below max_cores 4"),
              std::string::npos)
        << report.problems()[0].to_string();
    EXPECT_EQ(report.problems()[1].record, "halting event");
    EXPECT_EQ(report.kinds().at("custom counter value").bad, 1U);
    EXPECT_EQ(report.kinds().at("custom counter value").mapped, 1U);
    for (const auto& e : run->events) {
        std::visit(
            [](const auto& v) {
                if constexpr (requires { v.core; }) {
                    EXPECT_GE(v.core, 0);
                    EXPECT_LT(v.core, 4);
                }
            },
            e);
    }
    EXPECT_EQ(run->all<model::Idle>().size(), 0U);
}

TEST(BarmanSource, ValidRecordsThenInvalidOnesAreKept) {
    StoreBuilder b = rich_builder();
    b.sample(0, 10, 1, std::nullopt, {1, 1});
    b.block(b.record(77, 0, 11).data);  // unknown type: reported, skipped
    b.sample(0, 12, 1, std::nullopt, {2, 2});
    auto file = b.linear(1024);
    auto whole = run_source(write_temp("valid_then_invalid.raw", file));
    ASSERT_TRUE(whole);
    EXPECT_EQ(whole->values("ARMv8_Cortex_A53_ccnt"), (std::vector<std::int64_t>{1, 1}));
    const auto& r1 = whole->source->report();
    EXPECT_TRUE(r1.complete());
    EXPECT_EQ(r1.kinds().at("unknown record type").bad, 1U);
    EXPECT_EQ(r1.kinds().at("counter sample").mapped, 2U);
    ASSERT_EQ(r1.problems().size(), 1U);
    EXPECT_TRUE(r1.problems()[0].offset.has_value());

    // Cut the store inside the third block: the first two records stay, reading stops there.
    auto loaded = collectors::barman::BarmanSource::load(write_temp("tmp.raw", file));
    ASSERT_TRUE(loaded);
    file.resize(loaded->header.store.record_area + 48 + 32 + 20);
    auto cut = run_source(write_temp("cut_store.raw", file));
    ASSERT_TRUE(cut);
    EXPECT_EQ(cut->values("ARMv8_Cortex_A53_ccnt"), (std::vector<std::int64_t>{1}));
    const auto& r2 = cut->source->report();
    EXPECT_FALSE(r2.complete());
    ASSERT_TRUE(r2.stop_reason().has_value());
    EXPECT_TRUE(r2.stop_reason()->offset.has_value());
}

TEST(BarmanSource, OversizedBlockIsSkippedWithoutLoadingIt) {
    StoreBuilder b = rich_builder();
    b.sample(0, 10, 1, std::nullopt, {1, 1});
    b.block(std::vector<std::uint8_t>(17u << 20, 0));  // longer than any record
    b.sample(0, 12, 1, std::nullopt, {3, 3});
    auto run = run_source(write_temp("oversized.raw", b.linear((17u << 20) + 1024)));
    ASSERT_TRUE(run);
    EXPECT_EQ(run->values("ARMv8_Cortex_A53_ccnt"), (std::vector<std::int64_t>{1, 2}));
    const auto& report = run->source->report();
    EXPECT_TRUE(report.complete());
    EXPECT_EQ(report.kinds().at("record block").bad, 1U);
    ASSERT_EQ(report.problems().size(), 1U);
    EXPECT_NE(report.problems()[0].message.find("longer than any record"), std::string::npos);
}

TEST(BarmanSource, VersionThreeRecordsAndLastTimestampMarker) {
    StoreBuilder b = rich_builder();
    b.task_switch(1, 50, 2, 0);
    auto pc = b.record(7, 1, 60);
    pc.u64(0x20010);
    b.block(pc.data);
    auto ctr = b.record(8, 1, UINT64_MAX);  // "use the last timestamp"
    ctr.u32(0);
    ctr.u64(5);
    b.block(ctr.data);
    auto warn = b.record(9, 1, 70);
    warn.u32(1);
    b.block(warn.data);
    auto run = run_source(write_temp("v3.raw", b.linear(1024)));
    ASSERT_TRUE(run);
    const auto bts = run->all<model::Backtrace>();
    ASSERT_EQ(bts.size(), 1U);
    EXPECT_EQ(bts[0].tid, 2);  // the task last switched to on that core
    EXPECT_EQ(bts[0].frames.at(0).offset, 0x10);
    const auto depth = run->all<model::CounterSample>();
    ASSERT_EQ(depth.size(), 1U);
    EXPECT_EQ(depth[0].ts, 60);
    EXPECT_EQ(depth[0].value, 5);
    EXPECT_EQ(run->source->report().kinds().at("warning").skipped, 1U);
}

TEST(BarmanSource, ClockAndBaseShapeTheTimeline) {
    StoreConfig c;
    c.ts_base = 5000;
    c.ts_multiplier = 1'000'000'000;
    c.ts_divisor = 1'000'000;  // 1 MHz ticks
    StoreBuilder b = rich_builder(c);
    b.halt(0, 4000, true);  // before the base: the origin moves back to it
    b.halt(0, 7000, false);
    auto run = run_source(write_temp("clock.raw", b.linear(256)));
    ASSERT_TRUE(run);
    EXPECT_EQ(run->source->time_origin(), -1'000'000);
    const auto idle = run->all<model::Idle>();
    ASSERT_EQ(idle.size(), 2U);
    EXPECT_EQ(idle[0].ts, 0);
    EXPECT_EQ(idle[1].ts, 3'000'000);
}

TEST(BarmanSource, ExtremeClocksSaturateInsteadOfOverflowing) {
    StoreConfig c;
    c.ts_base = 1000;
    c.ts_multiplier = UINT64_MAX;  // absurd, but only the zero divisor is an error
    StoreBuilder b = rich_builder(c);
    b.halt(0, 0, true);            // before the base: the origin saturates low
    b.halt(0, 1ULL << 40, false);  // saturates high
    auto run = run_source(write_temp("extreme.raw", b.linear(256)));
    ASSERT_TRUE(run);
    const auto idle = run->all<model::Idle>();
    ASSERT_EQ(idle.size(), 2U);
    EXPECT_EQ(idle[0].ts, 0);
    EXPECT_EQ(idle[1].ts, INT64_MAX);
}

TEST(BarmanSource, RereadsAFileRewrittenBetweenCaptures) {
    StoreBuilder first = rich_builder();
    first.halt(0, 1, true);
    const auto path = write_temp("rewritten.raw", first.linear(256));
    auto run = run_source(path);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->all<model::Idle>().size(), 1U);

    StoreBuilder second = rich_builder();
    for (int i = 0; i < 5; ++i) second.halt(1, 10 + static_cast<std::uint64_t>(i), i % 2 == 0);
    write_temp("rewritten.raw", second.circular(512));
    run->capture();
    const auto idle = run->all<model::Idle>();
    ASSERT_EQ(idle.size(), 5U);
    EXPECT_EQ(idle[0].core, 1);
    EXPECT_TRUE(run->source->report().complete());

    // A capture of a file that became unreadable fails at start, with the reason.
    write_temp("rewritten.raw", {'n', 'o', 'p', 'e'});
    model::CaptureSettings settings;
    const collectors::CaptureContext ctx{settings, run->counters, 0};
    const Status st = run->source->start(ctx);
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().to_string().find("magic"), std::string::npos) << st.error().to_string();
}

// open() keeps what it read for the first capture, but not once the file changed: a refresh (as
// `serve --source` makes before each capture) finds the new version and its time origin.
TEST(BarmanSource, TheFirstCaptureReadsAFileRewrittenAfterOpen) {
    StoreConfig c;
    c.ts_base = 10'000;  // records before the base move the time origin back
    StoreBuilder first = rich_builder(c);
    first.halt(0, 1000, true);
    const auto path = write_temp("rewritten_after_open.raw", first.linear(256));
    auto opened = BarmanSource::open({path, {}});
    ASSERT_TRUE(opened);
    auto source = std::move(opened).value();
    EXPECT_EQ(source->time_origin(), -9000);
    EXPECT_TRUE(source->refresh());  // unchanged: nothing to read again
    EXPECT_EQ(source->time_origin(), -9000);

    StoreBuilder second = rich_builder(c);
    for (int i = 0; i < 3; ++i) second.halt(1, 500 + static_cast<std::uint64_t>(i), i == 0);
    write_temp("rewritten_after_open.raw", second.linear(512));
    ASSERT_TRUE(source->refresh());
    EXPECT_EQ(source->time_origin(), -9500);
    auto run = ingest_test::run_opened(Result<std::unique_ptr<BarmanSource>>(std::move(source)));
    ASSERT_TRUE(run);
    const auto idle = run->all<model::Idle>();
    ASSERT_EQ(idle.size(), 3U);
    EXPECT_EQ(idle[0].core, 1);
}

TEST(BarmanSource, CustomCounterRecordsFollowTheAgentsSeriesIds) {
    // As Arm's generator writes them: a recorded series by its index within its chart, core 0
    // for a chart that is not per-CPU.
    StoreConfig c;
    c.custom_series = 4;
    StoreBuilder b(c);
    b.core(0, 0x410fd034, {0xffffffffU});
    b.core(1, 0x410fd034, {0xffffffffU});
    b.chart("Queue", 1, 2, 0);                              // not per CPU
    b.chart("Temp", 2, 1, 0x08);                            // per CPU
    b.series(0, "sampled", "", 0xffffffffU, 1.0, 1, 1, 1);  // global 0, sampled
    b.series(0, "depth", "", 0xffffffffU, 1.0, 3, 2, 0);    // global 1, in-chart 1
    b.series(1, "celsius", "", 0xffffffffU, 1.0, 3, 4, 0);  // global 2, in-chart 0
    b.series(1, "fan", "", 0xffffffffU, 1.0, 3, 4, 0);      // global 3, in-chart 1
    b.custom(0, 10, 1, 1, 7);   // depth (in-chart 1, core 0) or fan (in-chart 1, core 0)
    b.custom(1, 11, 1, 0, 60);  // celsius: the only recorded in-chart 0
    b.custom(1, 12, 1, 1, 99);  // fan: core 1 rules out the Queue chart
    b.custom(0, 13, 1, 3, 5);   // a spec writer's global id 3: no in-chart 3, so fan
    auto run = run_source(write_temp("series.raw", b.linear(512)));
    ASSERT_TRUE(run);
    EXPECT_EQ(run->values("Barman_Queue_depth"), (std::vector<std::int64_t>{7}));
    EXPECT_EQ(run->values("Barman_Temp_celsius"), (std::vector<std::int64_t>{60}));
    EXPECT_EQ(run->values("Barman_Temp_fan"), (std::vector<std::int64_t>{99, 5}));
    const auto& kinds = run->source->report().kinds();
    EXPECT_EQ(kinds.at("custom counter value, ambiguous series").mapped, 1U);
    EXPECT_EQ(kinds.at("custom counter value").mapped, 4U);
}

TEST(BarmanSource, SniffAndOpenEntryPoints) {
    const auto path = write_temp("entry.raw", rich_builder().linear(64));
    std::vector<std::uint8_t> head(64);
    std::ifstream(path, std::ios::binary).read(wire::chars_of(head), 64);
    EXPECT_TRUE(collectors::barman::sniff(path, head));
    EXPECT_FALSE(collectors::barman::sniff(path, std::span(head).first(7)));
    auto src = collectors::barman::open({path, {}});
    ASSERT_TRUE(src) << src.error().to_string();
    EXPECT_EQ((*src)->name(), "barman");
    EXPECT_EQ((*src)->report().bytes_total, std::filesystem::file_size(path));
    const auto bad = write_temp("entry_bad.raw", std::vector<std::uint8_t>(200, 0x42));
    auto err = collectors::barman::open({bad, {}});
    ASSERT_FALSE(err);
    EXPECT_NE(err.error().to_string().find("unknown magic 42 42 42"), std::string::npos)
        << err.error().to_string();
}

}  // namespace
}  // namespace apcgate::barman_test
