#include "collectors/procfs/proc_stat.hpp"

#include "collectors/procfs/text_scan.hpp"

namespace apcgate::collectors::procfs {
namespace {

// "cpuN user nice system idle [iowait irq softirq steal ...]": the first four columns exist on
// every kernel we care about; later ones were added over time and default to 0 when absent.
bool parse_cpu_line(std::string_view name, std::string_view rest, CpuLine& out) {
    const auto cpu = parse_u64(name.substr(3));
    if (!cpu || *cpu > 1'000'000) return false;
    out.cpu = static_cast<int>(*cpu);
    std::uint64_t* fields[] = {&out.times.user,    &out.times.nice,   &out.times.system,
                               &out.times.idle,    &out.times.iowait, &out.times.irq,
                               &out.times.softirq, &out.times.steal};
    int n = 0;
    for (std::uint64_t* f : fields) {
        const std::string_view field = next_field(rest);
        if (field.empty()) break;
        const auto v = parse_u64(field);
        if (!v) return false;
        *f = *v;
        ++n;
    }
    return n >= 4;
}

}  // namespace

void parse_proc_stat(std::string_view text, ProcStat& out) {
    out.cpus.clear();
    out.ctxt.reset();
    out.intr.reset();
    out.malformed_lines = 0;
    while (!text.empty()) {
        std::string_view line = next_line(text);
        const std::string_view name = next_field(line);
        if (name.size() > 3 && name.substr(0, 3) == "cpu") {
            CpuLine c;
            if (parse_cpu_line(name, line, c))
                out.cpus.push_back(c);
            else
                ++out.malformed_lines;
        } else if (name == "ctxt" || name == "intr") {
            const auto v = next_u64(line);  // intr: the total comes first, then per-IRQ counts
            if (!v)
                ++out.malformed_lines;
            else
                (name == "ctxt" ? out.ctxt : out.intr) = *v;
        }
        // "cpu" (the sum over CPUs) and other lines (btime, processes, softirq...) are not used.
    }
}

std::optional<CpuUtilisation> cpu_utilisation(const CpuTimes& before, const CpuTimes& after) {
    const auto d = [](std::uint64_t a, std::uint64_t b) -> std::int64_t {
        return b > a ? static_cast<std::int64_t>(b - a) : 0;
    };
    const std::int64_t user = d(before.user, after.user) + d(before.nice, after.nice);
    const std::int64_t system = d(before.system, after.system) + d(before.irq, after.irq) +
                                d(before.softirq, after.softirq);
    const std::int64_t idle = d(before.idle, after.idle) + d(before.iowait, after.iowait);
    const std::int64_t total = user + system + idle + d(before.steal, after.steal);
    if (total <= 0) return std::nullopt;
    // Rounded to the nearest hundredth of a percent. Tick deltas are small (100 per second per
    // CPU), so the products cannot overflow.
    const auto share = [total](std::int64_t part) { return (part * 10000 + total / 2) / total; };
    return CpuUtilisation{share(user), share(system), share(idle)};
}

}  // namespace apcgate::collectors::procfs
