#include "collectors/pmu/pmu_naming.hpp"

#include <algorithm>
#include <cctype>

namespace apcgate::collectors::pmu {
namespace {

struct ArmPart {
    std::uint32_t part;
    int arch;  // architecture version gatord puts in the prefix (ARMv7/8/9)
    const char* name;
};

// Arm Ltd (implementer 0x41) parts, from each core's Technical Reference Manual (MIDR.PartNum).
constexpr ArmPart kArmParts[] = {
    {0xc05, 7, "Cortex-A5"},    {0xc07, 7, "Cortex-A7"},   {0xc08, 7, "Cortex-A8"},
    {0xc09, 7, "Cortex-A9"},    {0xc0d, 7, "Cortex-A12"},  {0xc0e, 7, "Cortex-A17"},
    {0xc0f, 7, "Cortex-A15"},   {0xd01, 8, "Cortex-A32"},  {0xd02, 8, "Cortex-A34"},
    {0xd03, 8, "Cortex-A53"},   {0xd04, 8, "Cortex-A35"},  {0xd05, 8, "Cortex-A55"},
    {0xd06, 8, "Cortex-A65"},   {0xd07, 8, "Cortex-A57"},  {0xd08, 8, "Cortex-A72"},
    {0xd09, 8, "Cortex-A73"},   {0xd0a, 8, "Cortex-A75"},  {0xd0b, 8, "Cortex-A76"},
    {0xd0c, 8, "Neoverse-N1"},  {0xd0d, 8, "Cortex-A77"},  {0xd0e, 8, "Cortex-A76AE"},
    {0xd40, 8, "Neoverse-V1"},  {0xd41, 8, "Cortex-A78"},  {0xd42, 8, "Cortex-A78AE"},
    {0xd43, 8, "Cortex-A65AE"}, {0xd44, 8, "Cortex-X1"},   {0xd46, 9, "Cortex-A510"},
    {0xd47, 9, "Cortex-A710"},  {0xd48, 9, "Cortex-X2"},   {0xd49, 9, "Neoverse-N2"},
    {0xd4a, 8, "Neoverse-E1"},  {0xd4b, 8, "Cortex-A78C"}, {0xd4d, 9, "Cortex-A715"},
    {0xd4e, 9, "Cortex-X3"},    {0xd4f, 9, "Neoverse-V2"}, {0xd80, 9, "Cortex-A520"},
    {0xd81, 9, "Cortex-A720"},  {0xd82, 9, "Cortex-X4"},
};

const ArmPart* find_part(std::uint32_t cpuid) {
    if ((cpuid >> 12) != 0x41) return nullptr;
    const std::uint32_t part = cpuid & 0xfff;
    for (const ArmPart& p : kArmParts)
        if (p.part == part) return &p;
    return nullptr;
}

std::string with_underscores(std::string s) {
    std::replace(s.begin(), s.end(), '-', '_');
    return s;
}

}  // namespace

std::string arm_core_name(std::uint32_t cpuid) {
    const ArmPart* p = find_part(cpuid);
    return p != nullptr ? p->name : "";
}

std::string counter_set_prefix(std::uint32_t cpuid) {
    const ArmPart* p = find_part(cpuid);
    if (p == nullptr) return std::string(kGenericPrefix);
    return "ARMv" + std::to_string(p->arch) + "_" + with_underscores(p->name);
}

std::string libpfm_arm_pmu(std::uint32_t cpuid) {
    const ArmPart* p = find_part(cpuid);
    if (p == nullptr) return "";
    std::string s = "arm_" + with_underscores(p->name);
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace apcgate::collectors::pmu
