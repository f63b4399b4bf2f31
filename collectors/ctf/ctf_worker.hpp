// The CTF worker: the process every libbabeltrace2 call runs in (child_process.hpp says why).
// The apcgate binary runs it as a hidden subcommand, started by CtfSource:
//   apcgate __ctf-worker probe TRACE...
//       one probe frame (trace_probe.hpp), or an error frame; then an end frame
//   apcgate __ctf-worker decode ZERO ORIGIN NCOUNTERS COUNTER... TRACE...
//       chunk frames of mapped model events until the last (finished) one, or an error frame
//       when no graph can be built; then an end frame. A decode that passes the bound of
//       decode_bound.hpp (an endless one) ends there, its last chunk saying why. COUNTER... are the
//       capture's enabled counter names the mapper may fill; the child keys them 3, 4, ... in that
//       order.
// Frames (worker_frames.hpp) go to the output fd; nothing else does.
//
// Before it touches a trace the worker makes no core files, limits its address space
// (kWorkerMemoryLimit), ignores SIGPIPE (a parent that went away ends it at its next write) and
// exits when its parent is gone (a hung libbabeltrace2 would never write again). It makes the
// repaired views of damaged traces (stream_repair.hpp) below the scratch directory its parent
// names in APCGATE_CTF_SCRATCH_DIR (scratch_dir.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::ctf {

inline constexpr std::string_view kWorkerCommand = "__ctf-worker";

// libbabeltrace2 indexes every packet of a trace in memory, so a large trace needs some room;
// 2.0.4 grows without bound on a packet_size of 0. 4 GiB is far above what the largest traces
// seen needed (a few hundred MiB) and well below what the daemon's host can give.
inline constexpr std::uint64_t kWorkerMemoryLimit = std::uint64_t{4} << 30;
// A worker that writes nothing for this long while the parent waits for it is stuck.
inline constexpr std::chrono::seconds kWorkerIdleLimit{30};

// The limits in force: the constants above unless the environment says otherwise
// (APCGATE_CTF_WORKER_MEMORY_MB, APCGATE_CTF_WORKER_IDLE_MS: for tests, which cannot wait 30 s
// for each hang). One more variable is a test hook only: APCGATE_CTF_WORKER_KILL_AFTER_CHUNKS=N
// makes the decoding worker SIGKILL itself after writing N chunk frames.
std::uint64_t worker_memory_limit();
std::chrono::milliseconds worker_idle_limit();

// `apcgate __ctf-worker ...` (argv[0] is the mode); returns the process's exit status.
int run_worker(int argc, char** argv, int out_fd);

// The worker's two jobs, callable in-process (the fuzz target): each hands its frames, one at a
// time, to `sink`, which returns false to stop (the parent went away).
using FrameSink = std::function<bool(std::span<const std::uint8_t> frame)>;
void probe_worker(const std::vector<std::filesystem::path>& traces, const FrameSink& sink);
void decode_worker(const std::vector<std::filesystem::path>& traces, model::Nanos zero,
                   model::Nanos origin, const std::vector<std::string>& counters,
                   const FrameSink& sink);

}  // namespace apcgate::collectors::ctf
