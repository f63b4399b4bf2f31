// What a capture opens, decided without a kernel: CPU lists and MIDRs, gatord's PMU naming,
// the events XML entries for a PMU, and how settings and configured counters (slot/event pairs,
// the cycle counter, `count` for event-based sampling) become a session plan.
#include <gtest/gtest.h>

#include "collectors/perf/capture_plan.hpp"
#include "collectors/perf/counter_specs.hpp"
#include "collectors/perf/probe.hpp"
#include "collectors/pmu/pmu_naming.hpp"

namespace apcgate::collectors::perf {
namespace {

TEST(ProbeText, CpuListsAndCpuinfo) {
    EXPECT_EQ(parse_cpu_list("0-3,6\n"), (std::vector<int>{0, 1, 2, 3, 6}));
    EXPECT_EQ(parse_cpu_list("1"), (std::vector<int>{1}));
    EXPECT_TRUE(parse_cpu_list("3-1").empty());
    EXPECT_TRUE(parse_cpu_list("x").empty());
    const char* bl =
        "processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xd03\n\n"
        "processor\t: 1\nCPU implementer\t: 0x41\nCPU part\t: 0xd03\n\n"
        "processor\t: 4\nCPU implementer\t: 0x41\nCPU part\t: 0xd09\n";
    EXPECT_EQ(cpuinfo_cpuids(bl), (std::vector<std::uint32_t>{0x41d03, 0x41d09}));
    EXPECT_TRUE(cpuinfo_cpuids("processor\t: 0\nmodel name\t: AMD EPYC\n").empty());
}

TEST(PmuNaming, ArmCoresAreNamedFromTheirMidrOthersAreGeneric) {
    EXPECT_EQ(pmu::counter_set_prefix(0x41d03), "ARMv8_Cortex_A53");
    EXPECT_EQ(pmu::counter_set_prefix(0x41c08), "ARMv7_Cortex_A8");
    EXPECT_EQ(pmu::counter_set_prefix(0x41d47), "ARMv9_Cortex_A710");
    EXPECT_EQ(pmu::counter_set_prefix(0x41d0c), "ARMv8_Neoverse_N1");
    EXPECT_EQ(pmu::counter_set_prefix(0), "Perf_Hardware");
    EXPECT_EQ(pmu::counter_set_prefix(0x51d03), "Perf_Hardware");  // not Arm Ltd
    EXPECT_EQ(pmu::libpfm_arm_pmu(0x41d03), "arm_cortex_a53");
    EXPECT_EQ(pmu::arm_core_name(0x41d0b), "Cortex-A76");
}

HwCluster a53() {
    HwCluster c;
    c.prefix = "ARMv8_Cortex_A53";
    c.pmu = "arm_cortex_a53";
    c.title = "Cortex-A53";
    c.slots = 6;
    c.raw_type = PERF_TYPE_RAW;
    c.events = {{"INST_RETIRED", "Instructions", PERF_TYPE_RAW, 0x8},
                {"L1D_CACHE_REFILL", "L1D refills", PERF_TYPE_RAW, 0x3},
                {"TOO_WIDE", "", PERF_TYPE_RAW, 0x1'0000'0000ull}};
    return c;
}

TEST(CounterSpecs, APmuIsACounterSetPlusACycleCounter) {
    const HwCluster c = a53();
    const auto set = counter_set_spec(c);
    EXPECT_EQ(set.name, "ARMv8_Cortex_A53_cnt");
    EXPECT_EQ(set.count, 6);
    EXPECT_TRUE(set.supports_event_based_sampling);
    ASSERT_EQ(set.events.size(), 2U);  // the 33-bit config cannot be an XML event number
    EXPECT_EQ(set.events[0].event, 0x8U);
    const auto ccnt = cycle_counter_spec(c);
    EXPECT_EQ(ccnt.counter, "ARMv8_Cortex_A53_ccnt");
    EXPECT_EQ(ccnt.event, 0xffU);
    EXPECT_EQ(ccnt.category, set.category);
}

TEST(RingSize, ABudgetSharedByTheCpusWithinLimits) {
    EXPECT_EQ(ring_bytes_for(true, 2), 8u << 20);
    EXPECT_EQ(ring_bytes_for(true, 4), 4u << 20);
    EXPECT_EQ(ring_bytes_for(true, 256), 1u << 20);   // never below 1 MiB
    EXPECT_EQ(ring_bytes_for(false, 2), 512u << 10);  // perf_event_mlock_kb's default
}

class Plan : public ::testing::Test {
  protected:
    void SetUp() override {
        caps.usable = caps.kernel = caps.clock_sampling = caps.switch_records = true;
        caps.cpus = {0, 1};
        TracepointInfo tp;
        tp.id = 372;
        caps.sched_switch = tp;
        caps.software = {&kSoftwareCounters[0], &kSoftwareCounters[2]};
        caps.clusters = {a53()};
        catalog.add(activity_spec(2));
        catalog.add(lost_spec());
        for (const auto* sw : caps.software) catalog.add(software_spec(*sw));
        catalog.add_set(counter_set_spec(caps.clusters[0]));
        catalog.add(cycle_counter_spec(caps.clusters[0]));
    }
    PlannedCapture plan(const model::Configuration& config, std::vector<pid_t> targets = {-1}) {
        counters = model::CaptureCounters::assign(catalog, config);
        const CaptureContext ctx{settings, counters, 0};
        return plan_capture(caps, ctx, std::move(targets), false);
    }
    Capabilities caps;
    model::CounterCatalog catalog;
    model::CaptureSettings settings;
    model::CaptureCounters counters;
};

TEST_F(Plan, SystemWideDefaultsUseSwitchRecordsAndSampleAtTheSessionRate) {
    settings.sample_rate = model::SampleRate::High;
    const auto p = plan(catalog.defaults());
    EXPECT_EQ(p.session.sample_hz, 10007);
    EXPECT_TRUE(p.session.callchain);
    // The records say who runs when; the tracepoint only what they cannot: the D wait state.
    EXPECT_TRUE(p.session.context_switch);
    EXPECT_EQ(p.session.sched_switch_id, 372U);
    EXPECT_EQ(p.session.sched_switch_filter, kUninterruptibleSwitchFilter);
    EXPECT_TRUE(p.activity_key.has_value());
    EXPECT_TRUE(p.lost_key.has_value());
    EXPECT_EQ(p.session.counters.size(), 3U);  // two software counters and the cycle counter
    EXPECT_EQ(p.counter_period, 10'000'000);
    EXPECT_FALSE(p.normalizer.follow);
    EXPECT_TRUE(p.session.scale);  // CPU-wide counters: enabled/running is multiplexing
}

TEST_F(Plan, FollowingAddsSwitchRecordsAndNoSamplingWhenRateIsNone) {
    settings.sample_rate = model::SampleRate::None;
    settings.call_stack_unwinding = false;
    const auto p = plan(catalog.defaults(), {1234, 1235});
    EXPECT_EQ(p.session.sample_hz, 0);
    EXPECT_FALSE(p.session.callchain);
    EXPECT_TRUE(p.session.context_switch);
    EXPECT_TRUE(p.normalizer.follow);
    EXPECT_FALSE(p.session.scale);  // per-task events on one CPU idle while the task runs elsewhere
    EXPECT_TRUE(p.normalizer.switch_out_from_tracepoint);
    EXPECT_EQ(p.session.sched_switch_id, 372U);
    EXPECT_EQ(p.session.sched_switch_filter, "");  // every switch-out's wait state
    EXPECT_EQ(p.session.targets, (std::vector<pid_t>{1234, 1235}));
    EXPECT_EQ(p.counter_period, 100'000'000);  // the live rate
}

TEST_F(Plan, SystemWideTheTracepointSamplesEverySwitchOnlyWithoutSwitchRecords) {
    caps.switch_records = false;
    auto p = plan(catalog.defaults());
    EXPECT_FALSE(p.session.context_switch);
    EXPECT_EQ(p.session.sched_switch_id, 372U);
    EXPECT_EQ(p.session.sched_switch_filter, "");
    caps.switch_records = true;
    caps.sched_switch.reset();
    p = plan(catalog.defaults());
    EXPECT_TRUE(p.session.context_switch);
    EXPECT_FALSE(p.session.sched_switch_id.has_value());
    EXPECT_EQ(p.session.sched_switch_filter, "");
}

TEST_F(Plan, ConfiguredSlotsProgramThePmuAndACountDrivesSampling) {
    model::Configuration config;
    config.counters = {{"ARMv8_Cortex_A53_cnt0", 0x8, std::nullopt, std::nullopt},
                       {"ARMv8_Cortex_A53_cnt1", 0x3, 100000, std::nullopt},
                       {"ARMv8_Cortex_A53_ccnt", std::nullopt, std::nullopt, std::nullopt},
                       {"PERF_COUNT_SW_PAGE_FAULTS", std::nullopt, 50, std::nullopt}};
    const auto p = plan(config);
    ASSERT_EQ(p.session.counters.size(), 4U);
    EXPECT_EQ(p.session.counters[0].type, static_cast<std::uint32_t>(PERF_TYPE_RAW));
    EXPECT_EQ(p.session.counters[0].config, 0x8U);
    EXPECT_EQ(p.session.counters[0].group, 1);
    EXPECT_EQ(p.session.counters[2].type, static_cast<std::uint32_t>(PERF_TYPE_HARDWARE));
    EXPECT_EQ(p.session.counters[3].group, 0);
    ASSERT_EQ(p.session.samplers.size(), 2U);
    EXPECT_EQ(p.session.samplers[0].config, 0x3U);
    EXPECT_EQ(p.session.samplers[0].period, 100000U);
    EXPECT_EQ(p.session.samplers[1].period, 50U);
    EXPECT_FALSE(p.activity_key.has_value());  // not configured: no switches traced
    EXPECT_FALSE(p.session.sched_switch_id.has_value());
}

}  // namespace
}  // namespace apcgate::collectors::perf
