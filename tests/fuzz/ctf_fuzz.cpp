// libFuzzer entry for the CTF ingester: the input is a whole CTF trace, laid out as
//   metadata_length:u16le metadata[metadata_length] stream_bytes...
// written to a trace directory (`metadata` and one data stream file) and read to the end
// through libbabeltrace2 by the CTF worker's two jobs (collectors/ctf/ctf_worker.hpp), run
// in-process here: the probe, then the decoding and mapping. Every frame they write goes through
// the parent's frame decoder, which must accept it (the codec's round trip is the oracle).
// Every outcome but a crash, a hang or unbounded memory is fine: rejected metadata, a decoding
// error, a stream cut back to its whole packets (stream_repair.hpp), or events. An input that
// decodes into empty events forever (tests/data/hostile/ctf_infinite_events, a seed of this
// target in .ci/test) is stopped by the worker's own decode bound (decode_bound.hpp), as in
// apcgate. libbabeltrace2 2.0.4's own hangs, aborts and crashes (tests/ctf/libbabeltrace2_bugs/)
// and its unbounded allocations still show here, in-process; apcgate confines them to the
// worker process. So CI runs this target in libFuzzer's fork mode, going on past timeouts,
// out-of-memory inputs and crashes, then replays each crash it kept and fails only on one whose
// innermost frame is not libbabeltrace2's (.ci/test, .ci/fuzz-triage-ctf):
//   ctf_fuzz -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 -timeout=10 \
//     -artifact_prefix=ART/ CORPUS && .ci/fuzz-triage-ctf ctf_fuzz ART
// The repairs' scratch directories (scratch_dir.hpp) go below this process's directory, so a
// run killed by libFuzzer leaves none behind once the next run has cleaned up.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "collectors/ctf/ctf_counters.hpp"
#include "collectors/ctf/ctf_worker.hpp"
#include "collectors/ctf/scratch_dir.hpp"
#include "collectors/ctf/trace_discovery.hpp"
#include "collectors/ctf/trace_graph.hpp"
#include "collectors/ctf/worker_frames.hpp"
#include "protocol/model/counter_catalog.hpp"

namespace {

namespace fs = std::filesystem;
namespace ctf = apcgate::collectors::ctf;

void write_file(const fs::path& p, const std::uint8_t* data, std::size_t size) {
    std::FILE* f = std::fopen(p.c_str(), "wb");
    if (f == nullptr) return;
    if (size > 0) std::fwrite(data, 1, size, f);
    std::fclose(f);
}

// The trace directory of this fuzzing process, removed when it ends: by the static object's
// destructor, and by an atexit handler for the ways out that skip destructors of objects made
// after it was registered (libFuzzer ends its runs with exit()). A process that died of a crash,
// a timeout or its memory limit (libFuzzer then calls _Exit, which runs neither) leaves its
// directory behind: the next one removes those of processes that no longer exist.
class TraceDir {
  public:
    TraceDir()
        : path_(fs::temp_directory_path() / (std::string(kPrefix) + std::to_string(::getpid()))) {
        remove_stale();
        fs::create_directories(trace());
        fs::create_directories(scratch());
        ::setenv(std::string(ctf::kScratchEnv).c_str(), scratch().c_str(), 1);
        std::atexit(remove_at_exit);
    }
    ~TraceDir() { remove(); }
    TraceDir(const TraceDir&) = delete;
    TraceDir& operator=(const TraceDir&) = delete;
    // The trace written for each input, and the parent of the repairs' scratch directories.
    [[nodiscard]] fs::path trace() const { return path_ / "trace"; }
    [[nodiscard]] fs::path scratch() const { return path_ / "scratch"; }

  private:
    static constexpr std::string_view kPrefix = "apcgate-ctf-fuzz-";
    static void remove_at_exit();
    static void remove_stale() {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(fs::temp_directory_path(), ec)) {
            const std::string name = e.path().filename().string();
            if (name.rfind(kPrefix, 0) != 0) continue;
            const long pid = std::strtol(name.c_str() + kPrefix.size(), nullptr, 10);
            if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
                fs::remove_all(e.path(), ec);
        }
    }
    void remove() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    fs::path path_;
};

TraceDir& trace_dir() {
    static TraceDir dir;
    return dir;
}

void TraceDir::remove_at_exit() {
    trace_dir().remove();
}

// Splits a frame written by the worker and checks its body decodes; what it holds goes to `on`.
template <typename F>
bool check_frame(std::span<const std::uint8_t> frame, F on) {
    auto header = ctf::decode_header(frame.first(std::min(frame.size(), ctf::kFrameHeaderBytes)));
    if (!header || header->body_bytes + ctf::kFrameHeaderBytes != frame.size()) __builtin_trap();
    on(header->kind, frame.subspan(ctf::kFrameHeaderBytes));
    return true;
}

}  // namespace

// libbabeltrace2 2.0 loses a few bytes on many malformed traces (in its metadata parser and its
// decoder, whose plugin has no frame pointers, so the reports cannot even be told apart from
// apcgate's): leak detection is off for this target only. AddressSanitizer and UBSan still check
// every access; apcgate's own handling of libbabeltrace2 references is checked for leaks by the
// ctf_test suite under the sanitizers (the CI's ASan run) on whole traces, good and bad.
extern "C" const char* __asan_default_options() {
    return "detect_leaks=0";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace apcgate;
    if (size < 2) return 0;
    const std::size_t meta_len = std::min<std::size_t>(size - 2, data[0] | (data[1] << 8));
    const fs::path dir = trace_dir().trace();
    write_file(dir / "metadata", data + 2, meta_len);
    write_file(dir / "stream", data + 2 + meta_len, size - 2 - meta_len);

    auto traces = ctf::find_traces(dir);
    if (!traces) return 0;
    std::optional<ctf::ProbeResult> probe;
    ctf::probe_worker(*traces, [&](std::span<const std::uint8_t> frame) {
        return check_frame(frame, [&](ctf::FrameKind kind, std::span<const std::uint8_t> body) {
            Error e;
            if (kind == ctf::FrameKind::Probe) {
                auto p = ctf::decode_probe(body);
                if (!p) __builtin_trap();
                probe = std::move(*p);
            } else if (kind == ctf::FrameKind::Error && !ctf::decode_error(body, e)) {
                __builtin_trap();
            }
        });
    });
    if (!probe || probe->traces.empty()) return 0;

    // Every counter the probe declared, keyed 3, 4, ... as the worker keys them.
    model::CounterCatalog catalog;
    ctf::declare_counters(probe->needs, catalog);
    std::vector<std::string> names;
    std::vector<model::CounterKey> keys;
    for (const auto& c : catalog.counters()) {
        names.push_back(c.counter);
        keys.push_back(static_cast<model::CounterKey>(keys.size() + 3));
    }
    const model::Nanos origin = probe->range ? probe->range->begin : 0;
    ctf::Chunk chunk;
    ctf::decode_worker(
        probe->traces, origin, origin, names, [&](std::span<const std::uint8_t> frame) {
            return check_frame(frame, [&](ctf::FrameKind kind, std::span<const std::uint8_t> body) {
                Error e;
                if (kind == ctf::FrameKind::Chunk) {
                    if (!ctf::decode_chunk(body, keys, chunk)) __builtin_trap();
                } else if (kind == ctf::FrameKind::Error && !ctf::decode_error(body, e)) {
                    __builtin_trap();
                }
            });
        });
    return 0;
}
