// /proc/stat: per-CPU time (in USER_HZ ticks, 1/100 s on every architecture) and the system-wide
// context switch and interrupt totals.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace apcgate::collectors::procfs {

// One "cpuN" line. The kernel already counts guest time inside user/nice, so guest columns are
// not read (adding them would count that time twice).
struct CpuTimes {
    std::uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0,
                  steal = 0;
};

struct CpuLine {
    int cpu = 0;
    CpuTimes times;
};

struct ProcStat {
    std::vector<CpuLine> cpus;          // online CPUs in file order (offline ones are absent)
    std::optional<std::uint64_t> ctxt;  // context switches since boot
    std::optional<std::uint64_t> intr;  // interrupts since boot (first number of "intr")
    int malformed_lines = 0;            // lines of a known kind that did not parse
};

// Parses into `out`, reusing its vector's capacity (the hot path does this every sample).
void parse_proc_stat(std::string_view text, ProcStat& out);
inline ProcStat parse_proc_stat(std::string_view text) {
    ProcStat s;
    parse_proc_stat(text, s);
    return s;
}

// Utilisation over an interval, in hundredths of a percent (2500 = 25.00 %).
struct CpuUtilisation {
    std::int64_t user = 0;    // user + nice
    std::int64_t system = 0;  // system + irq + softirq
    std::int64_t idle = 0;    // idle + iowait
};

// Shares of the ticks that elapsed between two samples of one CPU. Steal time counts in the
// total (the CPU was not ours), so user + system + idle is below 100 % on a busy hypervisor.
// A field that went backwards counts as 0 (iowait is known to decrease on NO_HZ kernels).
// nullopt when no tick elapsed: there is no interval to describe.
std::optional<CpuUtilisation> cpu_utilisation(const CpuTimes& before, const CpuTimes& after);

}  // namespace apcgate::collectors::procfs
