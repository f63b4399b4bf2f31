#include "collectors/procfs/cpu_info.hpp"

#include <algorithm>
#include <cstdio>

#include "collectors/procfs/file_reader.hpp"
#include "collectors/procfs/proc_stat.hpp"
#include "collectors/procfs/text_scan.hpp"

namespace apcgate::collectors::procfs {
namespace {

constexpr std::uint32_t kArmImplementer = 0x41;

struct PartName {
    std::uint32_t part;
    std::string_view name;
};

// MIDR part numbers of implementer 0x41 (Arm Ltd), from Arm's public TRMs.
constexpr PartName kArmParts[] = {
    {0xd03, "Cortex-A53"},  {0xd05, "Cortex-A55"},  {0xd07, "Cortex-A57"}, {0xd08, "Cortex-A72"},
    {0xd09, "Cortex-A73"},  {0xd0a, "Cortex-A75"},  {0xd0b, "Cortex-A76"}, {0xd0c, "Neoverse-N1"},
    {0xd0d, "Cortex-A77"},  {0xd40, "Neoverse-V1"}, {0xd41, "Cortex-A78"}, {0xd44, "Cortex-X1"},
    {0xd46, "Cortex-A510"}, {0xd47, "Cortex-A710"}, {0xd48, "Cortex-X2"},  {0xd49, "Neoverse-N2"},
    {0xd4d, "Cortex-A715"}, {0xd4e, "Cortex-X3"},
};

std::optional<std::uint32_t> hex32(std::string_view v) {
    const auto x = parse_hex_u64(v);
    if (!x || *x > 0xffffffffU) return std::nullopt;
    return static_cast<std::uint32_t>(*x);
}

}  // namespace

std::vector<CpuInfoEntry> parse_cpuinfo(std::string_view text) {
    std::vector<CpuInfoEntry> out;
    while (!text.empty()) {
        const std::string_view line = next_line(text);
        const auto colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        const std::string_view key = trim(line.substr(0, colon));
        const std::string_view value = trim(line.substr(colon + 1));
        if (key == "processor") {
            const auto n = parse_u64(value);
            // x86 and arm64 open each block with "processor"; a non-numeric one (old 32-bit Arm
            // "Processor : ARMv7 ...") is a name, not a block.
            if (n && *n < 1'000'000) {
                out.emplace_back();
                out.back().processor = static_cast<int>(*n);
            }
            continue;
        }
        if (out.empty()) continue;
        CpuInfoEntry& e = out.back();
        if (key == "CPU implementer")
            e.implementer = hex32(value);
        else if (key == "CPU part")
            e.part = hex32(value);
        else if (key == "model name")
            e.model_name = std::string(value);
    }
    return out;
}

std::uint32_t cpuid_of(const CpuInfoEntry& e) {
    if (!e.implementer || !e.part) return 0;
    return ((*e.implementer & 0xff) << 12) | (*e.part & 0xfff);
}

std::string_view arm_part_name(std::uint32_t part) {
    for (const auto& p : kArmParts)
        if (p.part == part) return p.name;
    return {};
}

std::string core_name(const CpuInfoEntry& e) {
    if (e.implementer && e.part) {
        if (*e.implementer == kArmImplementer) {
            const std::string_view n = arm_part_name(*e.part);
            if (!n.empty()) return std::string(n);
        }
        char buf[32];
        std::snprintf(buf, sizeof buf, "Arm 0x%x", static_cast<unsigned>(cpuid_of(e)));
        return buf;
    }
    return e.model_name.empty() ? "CPU" : e.model_name;
}

std::optional<int> cpu_list_count(std::string_view list) {
    list = trim(list);
    if (list.empty()) return std::nullopt;
    std::uint64_t highest = 0;
    while (!list.empty()) {
        const auto comma = list.find(',');
        const std::string_view range = list.substr(0, comma);
        list.remove_prefix(comma == std::string_view::npos ? list.size() : comma + 1);
        const auto dash = range.find('-');
        const auto lo = parse_u64(range.substr(0, dash));
        const auto hi = dash == std::string_view::npos ? lo : parse_u64(range.substr(dash + 1));
        if (!lo || !hi || *hi < *lo || *hi >= 1'000'000) return std::nullopt;
        highest = std::max(highest, *hi);
    }
    return static_cast<int>(highest) + 1;
}

std::vector<model::CoreName> read_core_names(const std::filesystem::path& proc_root) {
    std::vector<model::CoreName> out;
    std::string text;
    if (!read_file(proc_root / "cpuinfo", text)) return out;
    for (const auto& e : parse_cpuinfo(text)) {
        model::CoreName c;
        c.core = e.processor;
        c.cpuid = static_cast<std::int32_t>(cpuid_of(e));
        c.name = core_name(e);
        out.push_back(std::move(c));
    }
    return out;
}

model::TargetInfo probe_target(const std::filesystem::path& proc_root,
                               const std::filesystem::path& sys_root) {
    model::TargetInfo t;
    std::string text;
    std::optional<int> cores;
    if (read_file(sys_root / "devices/system/cpu/present", text)) cores = cpu_list_count(text);
    if (!cores && read_file(proc_root / "stat", text)) {
        int highest = -1;
        for (const auto& c : parse_proc_stat(text).cpus) highest = std::max(highest, c.cpu);
        if (highest >= 0) cores = highest + 1;
    }
    t.cores = cores.value_or(1);

    if (read_file(proc_root / "cpuinfo", text)) {
        const auto entries = parse_cpuinfo(text);
        const auto zero = std::find_if(entries.begin(), entries.end(),
                                       [](const CpuInfoEntry& e) { return e.processor == 0; });
        if (zero != entries.end())
            t.cpuid = cpuid_of(*zero);
        else if (!entries.empty())
            t.cpuid = cpuid_of(entries.front());
    }
    if (read_file(proc_root / "sys/kernel/hostname", text)) t.name = std::string(trim(text));
    return t;
}

}  // namespace apcgate::collectors::procfs
