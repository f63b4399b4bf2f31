#include "daemon/analysis/perf_samples.hpp"

#include <linux/perf_event.h>

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::daemon::analysis {

namespace {

constexpr std::uint64_t kContextKernel = static_cast<std::uint64_t>(PERF_CONTEXT_KERNEL);
constexpr std::uint64_t kContextUser = static_cast<std::uint64_t>(PERF_CONTEXT_USER);
constexpr std::uint64_t kContextMax = static_cast<std::uint64_t>(PERF_CONTEXT_MAX);

}  // namespace

bool is_cpu_sampler(const perf_framing::PerfAttr& attr) {
    if (attr.type == PERF_TYPE_TRACEPOINT) return false;
    if (attr.type == PERF_TYPE_SOFTWARE)
        return attr.config == PERF_COUNT_SW_CPU_CLOCK || attr.config == PERF_COUNT_SW_TASK_CLOCK;
    return true;
}

void PerfSamples::record(const perf_framing::RecordView& v) {
    const perf_framing::PerfRecord& r = *v.record;
    switch (r.header.type) {
        case PERF_RECORD_MMAP:
        case PERF_RECORD_MMAP2:
            if (!map(r.body_pid, r.map_addr, r.map_len, r.map_pgoff, r.text)) ++not_kept_;
            break;
        case PERF_RECORD_FORK:
            if (r.body_pid != r.parent_pid && !spaces_.contains(r.body_pid) &&
                spaces_.size() < kMaxProcesses) {
                if (auto parent = spaces_.find(r.parent_pid); parent != spaces_.end()) {
                    const Space copy = parent->second;
                    spaces_[r.body_pid] = copy;
                }
            }
            break;
        case PERF_RECORD_SAMPLE:
            if (v.attr != nullptr && is_cpu_sampler(*v.attr)) sample(r);
            break;
        default:
            break;
    }
}

void PerfSamples::maps(std::int32_t pid, std::string_view text) {
    if (pid <= 0) return;
    maps_skipped_ += for_each_executable_mapping(text, [&](const collectors::perf::MapsEntry& m) {
        return map(static_cast<std::uint32_t>(pid), m.start, m.end - m.start, m.pgoff, m.path);
    });
}

void PerfSamples::fill(Report& r) const {
    r.losses.add(AnalysisStat::MapsLinesSkipped, maps_skipped_.malformed + maps_skipped_.too_long,
                 std::to_string(maps_skipped_.malformed) + " not /proc/PID/maps lines, " +
                     std::to_string(maps_skipped_.too_long) + " longer than " +
                     std::to_string(kMaxMapsLineBytes) + " bytes");
    r.losses.add(AnalysisStat::MappingsNotKept, maps_skipped_.past_limit + not_kept_,
                 "past " + std::to_string(kMaxMappings) + " per process, " +
                     std::to_string(kMaxProcesses) + " processes or " + std::to_string(kMaxImages) +
                     " images");
}

bool PerfSamples::map(std::uint32_t pid, std::uint64_t addr, std::uint64_t len, std::uint64_t pgoff,
                      std::string_view path) {
    if (len == 0 || addr + len < addr || path.empty()) return true;  // nothing to map
    auto it = spaces_.find(pid);
    if (it == spaces_.end()) {
        if (spaces_.size() >= kMaxProcesses) return false;
        it = spaces_.emplace(pid, Space{}).first;
    }
    Space& space = it->second;
    // What the new mapping overlaps is gone, as mmap(MAP_FIXED) would make it.
    auto at = space.lower_bound(addr);
    if (at != space.begin() && std::prev(at)->second.end > addr) --at;
    while (at != space.end() && at->first < addr + len) at = space.erase(at);
    if (space.size() >= kMaxMappings) return false;
    auto c = cookies_.find(std::string(path));
    if (c == cookies_.end()) {
        if (cookies_.size() >= kMaxImages) return false;
        c = cookies_.emplace(std::string(path), static_cast<std::int32_t>(cookies_.size() + 2))
                .first;
        symbols_.name_cookie(c->second, c->first);
    }
    space[addr] = Mapping{addr + len, pgoff, c->second};
    return true;
}

model::StackFrame PerfSamples::frame(const Space* space, bool kernel, std::uint64_t ip) {
    if (kernel) return {0, static_cast<std::int64_t>(ip)};
    if (space != nullptr) {
        auto it = space->upper_bound(ip);
        if (it != space->begin()) {
            --it;
            if (ip < it->second.end)
                return {it->second.cookie,
                        static_cast<std::int64_t>(ip - it->first + it->second.pgoff)};
        }
    }
    ++unresolved_;
    return {-1, static_cast<std::int64_t>(ip)};
}

void PerfSamples::sample(const perf_framing::PerfRecord& r) {
    if (!r.pid) return;
    const auto s = spaces_.find(*r.pid);
    const Space* space = s == spaces_.end() ? nullptr : &s->second;
    scratch_.pid = static_cast<std::int32_t>(*r.pid);
    scratch_.tid = r.tid ? static_cast<std::int32_t>(*r.tid) : scratch_.pid;
    scratch_.frames.clear();
    bool kernel = (r.header.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
    bool usable = true;  // false inside guest contexts
    wire::ByteReader words(r.callchain, wire::Endian::Little);
    for (std::uint64_t i = 0; i < r.callchain_depth && words.ok() && !words.at_end(); ++i) {
        const std::uint64_t ip = words.u64("callchain ip");
        if (ip >= kContextMax) {
            kernel = ip == kContextKernel;
            usable = kernel || ip == kContextUser;
            continue;
        }
        if (usable) scratch_.frames.push_back(frame(space, kernel, ip));
    }
    if (scratch_.frames.empty() && r.ip) scratch_.frames.push_back(frame(space, kernel, *r.ip));
    if (!scratch_.frames.empty()) stacks_.sample(scratch_);
}

}  // namespace apcgate::daemon::analysis
