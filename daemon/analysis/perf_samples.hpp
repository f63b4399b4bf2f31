// The CPU samples of a Perf-framing capture as call stacks: its PERF_DATA frames hold the
// kernel's own records, so a sample's callchain is raw instruction addresses. The MMAP and
// MMAP2 records say which file each address range of a process maps (ip - addr + pgoff is the
// file offset the image's symbols resolve, as for a Backtrace frame); a FORK gives the child a
// copy of its parent's mappings; a process that was running before the capture began has its
// mappings in a PERF_ATTRS MAPS text (maps_text.hpp). Kernel addresses are cookie 0 (named from
// the capture's kallsyms by ImageSymbols); an address no mapping covers is [unknown]. Only CPU
// samples (is_cpu_sampler) make stacks. Mappings are bounded per process, in number of processes
// and of distinct images.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

#include "daemon/analysis/image_symbols.hpp"
#include "daemon/analysis/maps_text.hpp"
#include "daemon/analysis/report.hpp"
#include "daemon/analysis/stack_profile.hpp"
#include "protocol/perf_framing/capture_check.hpp"

namespace apcgate::daemon::analysis {

// Whether the samples of an event are CPU samples (taken on a clock or a PMU counter's
// overflow): not tracepoint samples (sched_switch's are switches; a tracepoint counter's are
// events) nor samples of software events other than the clocks (page faults, say).
bool is_cpu_sampler(const perf_framing::PerfAttr& attr);

class PerfSamples {
  public:
    static constexpr std::size_t kMaxMappings = 1u << 16;  // per process
    static constexpr std::size_t kMaxProcesses = 1u << 16;
    static constexpr std::size_t kMaxImages = 1u << 16;

    PerfSamples(ImageSymbols& symbols, StackProfile& stacks) : symbols_(symbols), stacks_(stacks) {}

    void record(const perf_framing::RecordView& v);
    // A MAPS message: the executable mappings of `pid` when the capture began.
    void maps(std::int32_t pid, std::string_view text);
    // Losses: MAPS lines skipped, mappings not kept.
    void fill(Report& r) const;
    [[nodiscard]] std::uint64_t unresolved_frames() const { return unresolved_; }

  private:
    struct Mapping {
        std::uint64_t end = 0;
        std::uint64_t pgoff = 0;
        std::int32_t cookie = -1;
    };
    using Space = std::map<std::uint64_t, Mapping>;  // by start

    // False when there was no room for the mapping (a bound reached).
    bool map(std::uint32_t pid, std::uint64_t addr, std::uint64_t len, std::uint64_t pgoff,
             std::string_view path);
    void sample(const perf_framing::PerfRecord& r);
    model::StackFrame frame(const Space* space, bool kernel, std::uint64_t ip);

    ImageSymbols& symbols_;
    StackProfile& stacks_;
    std::unordered_map<std::uint32_t, Space> spaces_;
    std::unordered_map<std::string, std::int32_t> cookies_;  // image path -> its cookie
    std::uint64_t unresolved_ = 0;
    std::uint64_t not_kept_ = 0;  // MMAP/MMAP2 records past a bound
    MapsSkipped maps_skipped_;
    model::Backtrace scratch_;
};

}  // namespace apcgate::daemon::analysis
