// /proc/cpuinfo parsing, core names and the target probe.
#include "collectors/procfs/cpu_info.hpp"

#include <gtest/gtest.h>

#include <string>

#include "fake_tree.hpp"

namespace apcgate::collectors::procfs {
namespace {

std::string arm64_block(int processor, const char* part) {
    return "processor\t: " + std::to_string(processor) +
           "\nBogoMIPS\t: 38.40\n"
           "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid\n"
           "CPU implementer\t: 0x41\n"
           "CPU architecture: 8\n"
           "CPU variant\t: 0x0\n"
           "CPU part\t: " +
           part + "\nCPU revision\t: 4\n\n";
}

std::string arm64_a53_x4() {
    std::string s;
    for (int i = 0; i < 4; ++i) s += arm64_block(i, "0xd03");
    return s;
}

constexpr std::string_view kX86Cpuinfo =
    "processor\t: 0\n"
    "vendor_id\t: AuthenticAMD\n"
    "cpu family\t: 25\n"
    "model\t\t: 17\n"
    "model name\t: AMD EPYC\n"
    "flags\t\t: fpu vme de pse tsc msr pae mce\n"
    "power management:\n"
    "\n"
    "processor\t: 1\n"
    "vendor_id\t: AuthenticAMD\n"
    "model name\t: AMD EPYC\n"
    "\n";

TEST(CpuInfo, Arm64CortexA53) {
    const auto entries = parse_cpuinfo(arm64_a53_x4());
    ASSERT_EQ(entries.size(), 4U);
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(entries[static_cast<std::size_t>(i)].processor, i);
        EXPECT_EQ(cpuid_of(entries[static_cast<std::size_t>(i)]), 0x41d03U);
        EXPECT_EQ(core_name(entries[static_cast<std::size_t>(i)]), "Cortex-A53");
    }
}

TEST(CpuInfo, BigLittleAndUnknownParts) {
    const auto entries =
        parse_cpuinfo(arm64_block(0, "0xd05") + arm64_block(1, "0xd0b") + arm64_block(2, "0xd99"));
    ASSERT_EQ(entries.size(), 3U);
    EXPECT_EQ(core_name(entries[0]), "Cortex-A55");
    EXPECT_EQ(core_name(entries[1]), "Cortex-A76");
    EXPECT_EQ(core_name(entries[2]), "Arm 0x41d99");
    CpuInfoEntry qualcomm;
    qualcomm.implementer = 0x51;
    qualcomm.part = 0x804;
    EXPECT_EQ(cpuid_of(qualcomm), 0x51804U);
    EXPECT_EQ(core_name(qualcomm), "Arm 0x51804");  // the table is Arm Ltd's parts only
}

TEST(CpuInfo, PartTable) {
    const std::pair<std::uint32_t, std::string_view> expected[] = {
        {0xd03, "Cortex-A53"},  {0xd05, "Cortex-A55"},  {0xd07, "Cortex-A57"},
        {0xd08, "Cortex-A72"},  {0xd09, "Cortex-A73"},  {0xd0a, "Cortex-A75"},
        {0xd0b, "Cortex-A76"},  {0xd0d, "Cortex-A77"},  {0xd41, "Cortex-A78"},
        {0xd44, "Cortex-X1"},   {0xd47, "Cortex-A710"}, {0xd48, "Cortex-X2"},
        {0xd46, "Cortex-A510"}, {0xd4d, "Cortex-A715"}, {0xd4e, "Cortex-X3"},
        {0xd0c, "Neoverse-N1"}, {0xd49, "Neoverse-N2"}, {0xd40, "Neoverse-V1"},
    };
    for (const auto& [part, name] : expected) EXPECT_EQ(arm_part_name(part), name) << part;
    EXPECT_EQ(arm_part_name(0x123), "");
}

TEST(CpuInfo, X86UsesModelNameAndCpuidZero) {
    const auto entries = parse_cpuinfo(kX86Cpuinfo);
    ASSERT_EQ(entries.size(), 2U);
    EXPECT_EQ(cpuid_of(entries[1]), 0U);
    EXPECT_EQ(core_name(entries[1]), "AMD EPYC");
    EXPECT_EQ(core_name(CpuInfoEntry{}), "CPU");
}

TEST(CpuInfo, MalformedTextDoesNotCrash) {
    EXPECT_TRUE(parse_cpuinfo("").empty());
    EXPECT_TRUE(parse_cpuinfo("CPU part : 0xd03\n").empty());  // no block opened
    const auto e = parse_cpuinfo(
        "processor : x\nprocessor : 2\nCPU implementer : zz\n"
        "CPU part : 0xd03\n");
    ASSERT_EQ(e.size(), 1U);
    EXPECT_EQ(e[0].processor, 2);
    EXPECT_FALSE(e[0].implementer.has_value());
    EXPECT_EQ(cpuid_of(e[0]), 0U);
}

TEST(CpuList, HighestCpuPlusOne) {
    EXPECT_EQ(cpu_list_count("0-3\n"), 4);
    EXPECT_EQ(cpu_list_count("0,2-5"), 6);
    EXPECT_EQ(cpu_list_count("0"), 1);
    EXPECT_FALSE(cpu_list_count("").has_value());
    EXPECT_FALSE(cpu_list_count("3-1").has_value());
    EXPECT_FALSE(cpu_list_count("a").has_value());
    EXPECT_FALSE(cpu_list_count("0-").has_value());
}

TEST(ReadCoreNames, OnePerProcessor) {
    testing::FakeTree tree;
    tree.proc_file("cpuinfo", arm64_a53_x4());
    const auto names = read_core_names(tree.proc());
    ASSERT_EQ(names.size(), 4U);
    EXPECT_EQ(names[3].core, 3);
    EXPECT_EQ(names[3].cpuid, 0x41d03);
    EXPECT_EQ(names[3].name, "Cortex-A53");
    EXPECT_EQ(names[3].ts, 0);
    EXPECT_TRUE(read_core_names(tree.proc() / "missing").empty());
}

TEST(ProbeTarget, FromPresentCpuinfoAndHostname) {
    testing::FakeTree tree;
    tree.proc_file("cpuinfo", arm64_a53_x4());
    tree.proc_file("sys/kernel/hostname", "board-7\n");
    tree.proc_file("stat", "cpu0 1 2 3 4\n");  // only one online: present wins
    tree.sys_file("devices/system/cpu/present", "0-3\n");
    const model::TargetInfo t = probe_target(tree.proc(), tree.sys());
    EXPECT_EQ(t.name, "board-7");
    EXPECT_EQ(t.cores, 4);
    EXPECT_EQ(t.cpuid, 0x41d03U);
}

TEST(ProbeTarget, FallsBackToProcStatThenOne) {
    testing::FakeTree tree;
    tree.proc_file("stat", "cpu  1 1 1 1\ncpu0 1 2 3 4\ncpu5 1 2 3 4\n");
    const model::TargetInfo t = probe_target(tree.proc(), tree.sys());
    EXPECT_EQ(t.cores, 6);
    EXPECT_EQ(t.cpuid, 0U);
    EXPECT_EQ(t.name, "");
    testing::FakeTree empty;
    EXPECT_EQ(probe_target(empty.proc(), empty.sys()).cores, 1);
}

}  // namespace
}  // namespace apcgate::collectors::procfs
