#include "collectors/barman/cpu_types.hpp"

#include <cstdio>
#include <string_view>

namespace apcgate::collectors::barman {
namespace {

struct Part {
    std::uint32_t part;
    std::string_view name;
    std::string_view prefix;
};

// MIDR part numbers of implementer 0x41 (Arm Ltd), from Arm's public TRMs; prefixes as gatord
// names the counter sets (variants of one core share their base core's set).
constexpr Part kArmParts[] = {
    {0xc05, "Cortex-A5", "ARMv7_Cortex_A5"},       {0xc07, "Cortex-A7", "ARMv7_Cortex_A7"},
    {0xc08, "Cortex-A8", "ARMv7_Cortex_A8"},       {0xc09, "Cortex-A9", "ARMv7_Cortex_A9"},
    {0xc0d, "Cortex-A12", "ARMv7_Cortex_A17"},     {0xc0e, "Cortex-A17", "ARMv7_Cortex_A17"},
    {0xc0f, "Cortex-A15", "ARMv7_Cortex_A15"},     {0xc14, "Cortex-R4", "ARMv7R_Cortex_R4"},
    {0xc15, "Cortex-R5", "ARMv7R_Cortex_R5"},      {0xc17, "Cortex-R7", "ARMv7R_Cortex_R7"},
    {0xc18, "Cortex-R8", "ARMv7R_Cortex_R8"},      {0xd01, "Cortex-A32", "ARMv8_Cortex_A32"},
    {0xd02, "Cortex-A34", "ARMv8_Cortex_A34"},     {0xd03, "Cortex-A53", "ARMv8_Cortex_A53"},
    {0xd04, "Cortex-A35", "ARMv8_Cortex_A35"},     {0xd05, "Cortex-A55", "ARMv8_Cortex_A55"},
    {0xd06, "Cortex-A65", "ARMv8_Cortex_A65AE"},   {0xd07, "Cortex-A57", "ARMv8_Cortex_A57"},
    {0xd08, "Cortex-A72", "ARMv8_Cortex_A72"},     {0xd09, "Cortex-A73", "ARMv8_Cortex_A73"},
    {0xd0a, "Cortex-A75", "ARMv8_Cortex_A75"},     {0xd0b, "Cortex-A76", "ARMv8_Cortex_A76"},
    {0xd0c, "Neoverse-N1", "ARMv8_Neoverse_N1"},   {0xd0d, "Cortex-A77", "ARMv8_Cortex_A77"},
    {0xd0e, "Cortex-A76AE", "ARMv8_Cortex_A76"},   {0xd13, "Cortex-R52", "ARMv8R_Cortex_R52"},
    {0xd15, "Cortex-R82", "ARMv8R_Cortex_R82"},    {0xd40, "Neoverse-V1", "ARMv8_Neoverse_V1"},
    {0xd41, "Cortex-A78", "ARMv8_Cortex_A78"},     {0xd42, "Cortex-A78AE", "ARMv8_Cortex_A78"},
    {0xd43, "Cortex-A65AE", "ARMv8_Cortex_A65AE"}, {0xd44, "Cortex-X1", "ARMv8_Cortex_X1"},
    {0xd46, "Cortex-A510", "ARMv8_Cortex_A510"},   {0xd47, "Cortex-A710", "ARMv8_Cortex_A710"},
    {0xd48, "Cortex-X2", "ARMv8_Cortex_X2"},       {0xd49, "Neoverse-N2", "ARMv9_Neoverse_N2"},
    {0xd4a, "Neoverse-E1", "ARMv8_Neoverse_E1"},   {0xd4b, "Cortex-A78C", "ARMv8_Cortex_A78"},
    {0xd4c, "Cortex-X1C", "ARMv8_Cortex_X1"},      {0xd4d, "Cortex-A715", "ARMv9_Cortex_A715"},
    {0xd4e, "Cortex-X3", "ARMv9_Cortex_X3"},       {0xd4f, "Neoverse-V2", "ARMv9_Neoverse_V2"},
    {0xd80, "Cortex-A520", "ARMv9_Cortex_A520"},   {0xd81, "Cortex-A720", "ARMv9_Cortex_A720"},
    {0xd82, "Cortex-X4", "ARMv9_Cortex_X4"},       {0xd84, "Neoverse-V3", "ARMv9_Neoverse_V3"},
    {0xd85, "Cortex-X925", "ARMv9_Cortex_X925"},   {0xd87, "Cortex-A725", "ARMv9_Cortex_A725"},
    {0xd8e, "Neoverse-N3", "ARMv9_Neoverse_N3"},
};

struct Event {
    std::uint32_t number;
    std::string_view mnemonic;
    std::string_view name;
};

// The common architectural and microarchitectural events (Arm ARM D11/D17 "PMU events and event
// numbers"), 0x00-0x3f: every Armv7/Armv8 PMU numbers these the same way.
constexpr Event kCommonEvents[] = {
    {0x00, "SW_INCR", "Software increment"},
    {0x01, "L1I_CACHE_REFILL", "L1 instruction cache refills"},
    {0x02, "L1I_TLB_REFILL", "L1 instruction TLB refills"},
    {0x03, "L1D_CACHE_REFILL", "L1 data cache refills"},
    {0x04, "L1D_CACHE", "L1 data cache accesses"},
    {0x05, "L1D_TLB_REFILL", "L1 data TLB refills"},
    {0x06, "LD_RETIRED", "Loads retired"},
    {0x07, "ST_RETIRED", "Stores retired"},
    {0x08, "INST_RETIRED", "Instructions retired"},
    {0x09, "EXC_TAKEN", "Exceptions taken"},
    {0x0a, "EXC_RETURN", "Exception returns"},
    {0x0b, "CID_WRITE_RETIRED", "Context ID writes"},
    {0x0c, "PC_WRITE_RETIRED", "Software PC changes"},
    {0x0d, "BR_IMMED_RETIRED", "Immediate branches retired"},
    {0x0e, "BR_RETURN_RETIRED", "Procedure returns retired"},
    {0x0f, "UNALIGNED_LDST_RETIRED", "Unaligned loads and stores"},
    {0x10, "BR_MIS_PRED", "Branches mispredicted"},
    {0x11, "CPU_CYCLES", "Cycles"},
    {0x12, "BR_PRED", "Branches predicted"},
    {0x13, "MEM_ACCESS", "Data memory accesses"},
    {0x14, "L1I_CACHE", "L1 instruction cache accesses"},
    {0x15, "L1D_CACHE_WB", "L1 data cache write-backs"},
    {0x16, "L2D_CACHE", "L2 data cache accesses"},
    {0x17, "L2D_CACHE_REFILL", "L2 data cache refills"},
    {0x18, "L2D_CACHE_WB", "L2 data cache write-backs"},
    {0x19, "BUS_ACCESS", "Bus accesses"},
    {0x1a, "MEMORY_ERROR", "Local memory errors"},
    {0x1b, "INST_SPEC", "Instructions speculatively executed"},
    {0x1c, "TTBR_WRITE_RETIRED", "TTBR writes"},
    {0x1d, "BUS_CYCLES", "Bus cycles"},
    {0x1e, "CHAIN", "Chained counter overflows"},
    {0x1f, "L1D_CACHE_ALLOCATE", "L1 data cache allocations"},
    {0x20, "L2D_CACHE_ALLOCATE", "L2 data cache allocations"},
    {0x21, "BR_RETIRED", "Branches retired"},
    {0x22, "BR_MIS_PRED_RETIRED", "Branches mispredicted, retired"},
    {0x23, "STALL_FRONTEND", "Frontend stall cycles"},
    {0x24, "STALL_BACKEND", "Backend stall cycles"},
    {0x25, "L1D_TLB", "L1 data TLB accesses"},
    {0x26, "L1I_TLB", "L1 instruction TLB accesses"},
    {0x27, "L2I_CACHE", "L2 instruction cache accesses"},
    {0x28, "L2I_CACHE_REFILL", "L2 instruction cache refills"},
    {0x29, "L3D_CACHE_ALLOCATE", "L3 data cache allocations"},
    {0x2a, "L3D_CACHE_REFILL", "L3 data cache refills"},
    {0x2b, "L3D_CACHE", "L3 data cache accesses"},
    {0x2c, "L3D_CACHE_WB", "L3 data cache write-backs"},
    {0x2d, "L2D_TLB_REFILL", "L2 data TLB refills"},
    {0x2e, "L2I_TLB_REFILL", "L2 instruction TLB refills"},
    {0x2f, "L2D_TLB", "L2 data TLB accesses"},
    {0x30, "L2I_TLB", "L2 instruction TLB accesses"},
    {0x31, "REMOTE_ACCESS", "Remote memory accesses"},
    {0x32, "LL_CACHE", "Last level cache accesses"},
    {0x33, "LL_CACHE_MISS", "Last level cache misses"},
    {0x34, "DTLB_WALK", "Data TLB walks"},
    {0x35, "ITLB_WALK", "Instruction TLB walks"},
    {0x36, "LL_CACHE_RD", "Last level cache reads"},
    {0x37, "LL_CACHE_MISS_RD", "Last level cache read misses"},
    {0x38, "REMOTE_ACCESS_RD", "Remote memory reads"},
    {0x39, "L1D_CACHE_LMISS_RD", "L1 data cache long-latency read misses"},
    {0x3a, "OP_RETIRED", "Micro-operations retired"},
    {0x3b, "OP_SPEC", "Micro-operations speculatively executed"},
    {0x3c, "STALL", "Stall cycles"},
    {0x3d, "STALL_SLOT_BACKEND", "Backend stall slots"},
    {0x3e, "STALL_SLOT_FRONTEND", "Frontend stall slots"},
    {0x3f, "STALL_SLOT", "Stall slots"},
};

std::string hex(std::uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "%x", static_cast<unsigned>(v));
    return b;
}

}  // namespace

CpuType cpu_type_of(std::uint32_t midr) {
    CpuType t;
    const std::uint32_t implementer = midr >> 24;
    const std::uint32_t part = (midr >> 4) & 0xfff;
    t.cpuid = (implementer << 12) | part;
    if (implementer == 0x41) {
        for (const Part& p : kArmParts) {
            if (p.part != part) continue;
            t.core_name = p.name;
            t.prefix = p.prefix;
            // gatord's Armv7 sets count cycles on the fixed event 0xff, the others on 0x11.
            if (t.prefix.rfind("ARMv7", 0) == 0) t.cycle_event = 0xff;
            return t;
        }
    }
    if (midr == 0) {
        t.core_name = "Unknown CPU";
        t.prefix = "Barman_CPU_unknown";
    } else {
        t.core_name = (implementer == 0x41 ? "Arm 0x" : "CPU 0x") + hex(t.cpuid);
        t.prefix = "Barman_CPU_0x" + hex(t.cpuid);
    }
    return t;
}

std::string pmu_event_mnemonic(std::uint32_t event) {
    for (const Event& e : kCommonEvents)
        if (e.number == event) return std::string(e.mnemonic);
    return {};
}

std::string pmu_event_name(std::uint32_t event) {
    for (const Event& e : kCommonEvents)
        if (e.number == event) return std::string(e.name);
    return "Event 0x" + hex(event);
}

}  // namespace apcgate::collectors::barman
