// A Source that reads a trace file (or directory) instead of the live system: the Barman, XRay,
// FXT and CTF ingesters. The convert command and `serve --source` drive them through the same
// capture engine as live collectors.
//
// Lifecycle: the factory opens the input and reads what it must to declare counters and to find
// the input's time origin (header, or a first pass); declare()/describe() follow; refresh()
// re-reads that much if the input changed; start() (re)reads the input from the beginning —
// `serve --source` starts one per capture, so a file a debugger rewrote between captures is
// read afresh; poll() hands out events in timestamp order a bounded chunk at a time (memory
// stays bounded for large inputs) and says finished at the end.
//
// Timestamps: an ingester converts its clock to nanoseconds in its own absolute domain (clock()
// names it), and subtracts CaptureContext::zero_monotonic_ns, which the driver sets to this
// input's place on the capture's timeline (timeline_placement.hpp): the earliest time_origin()
// of the inputs in one domain, related to the others' through CLOCK_MONOTONIC when it can be,
// so several inputs of one run share one timeline.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "collectors/ingest/ingest_report.hpp"
#include "collectors/ingest/input_clock.hpp"
#include "collectors/source.hpp"

namespace apcgate::collectors::ingest {

// What the command line says about the trace inputs, as given and the same for every format:
// each format's open() makes its own options of what it uses (the binary that wrote a log, of
// `binaries`; a worker process, `self_exe`), so the driver never asks which format an input is.
struct IngestOptions {
    std::filesystem::path input;
    std::vector<std::filesystem::path> binaries = {};  // --binary
    // The apcgate executable (tests name the built binary: their own executable is not it).
    std::filesystem::path self_exe = "/proc/self/exe";
    // --debug-dir: where a stripped binary's debug file may be (gdb's debug-file-directory).
    std::vector<std::filesystem::path> debug_dirs = {"/usr/lib/debug"};
};

// How many CPUs this process may run on (its affinity mask: `taskset`, cgroups' cpusets); 1
// when that cannot be read.
unsigned usable_cpus();

class IngestSource : public Source {
  public:
    // Earliest timestamp of the input in the ingester's absolute ns domain (0 when unknown).
    [[nodiscard]] virtual model::Nanos time_origin() const = 0;
    // The domain of the input's ns (valid, like time_origin(), once the factory opened it).
    [[nodiscard]] virtual InputClock clock() const = 0;
    // Brings what time_origin() and clock() describe up to date with the input as it is now:
    // `serve --source` runs many captures, and a debugger or a new run of the program may have
    // rewritten the file since it was opened. The driver calls it before it places the inputs
    // for a capture (and start() reads what it found). An error is the input's, as from open().
    virtual Status refresh() = 0;
    [[nodiscard]] virtual const IngestReport& report() const = 0;
    // Ingest sources have no period of their own: `convert` polls them as fast as it writes,
    // `serve --source` as fast as the client takes the frames.
    [[nodiscard]] bool recorded() const override { return true; }
};

// One entry per supported format, in daemon/capture/ingest_registry.cpp.
struct IngestFormat {
    std::string name;  // "barman", "xray", "fxt", "ctf": used by --format and fmt:PATH
    std::string description;
    // True when the first bytes of a file (or, for directories, the path) are this format.
    std::function<bool(const std::filesystem::path& path, std::span<const std::uint8_t> head)>
        sniff;
    // Opens the input, with the format's own options made from the shared ones.
    std::function<Result<std::unique_ptr<IngestSource>>(const IngestOptions&)> open;
};

}  // namespace apcgate::collectors::ingest
