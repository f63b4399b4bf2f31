#include "collectors/ctf/ctf_worker.hpp"

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "collectors/ctf/decode_bound.hpp"
#include "collectors/ctf/event_mapper.hpp"
#include "collectors/ctf/trace_graph.hpp"
#include "collectors/ctf/trace_probe.hpp"
#include "collectors/ctf/worker_frames.hpp"
#include "protocol/model/capture_settings.hpp"
#include "protocol/model/counter_catalog.hpp"

namespace apcgate::collectors::ctf {

namespace {

std::optional<std::int64_t> env_number(const char* name) {
    const char* v = std::getenv(name);
    if (v == nullptr || *v == '\0') return std::nullopt;
    char* end = nullptr;
    const long long n = std::strtoll(v, &end, 10);
    if (*end != '\0' || n <= 0) return std::nullopt;
    return n;
}

std::optional<std::int64_t> parse_int(const char* s) {
    char* end = nullptr;
    errno = 0;
    const long long n = std::strtoll(s, &end, 10);
    if (end == s || *end != '\0' || errno != 0) return std::nullopt;
    return n;
}

bool write_all(int fd, std::span<const std::uint8_t> bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;  // EPIPE: the parent went away
        }
        bytes = bytes.subspan(static_cast<std::size_t>(n));
    }
    return true;
}

void set_limits(int out_fd) {
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    // (The sanitizers reserve terabytes of shadow address space: no limit under them.)
    const rlimit memory{worker_memory_limit(), worker_memory_limit()};
    ::setrlimit(RLIMIT_AS, &memory);
#endif
    ::signal(SIGPIPE, SIG_IGN);
    // (ChildProcess closed them before exec already; this is for any other caller.)
    if (out_fd > STDERR_FILENO + 1)
        ::close_range(STDERR_FILENO + 1, static_cast<unsigned>(out_fd) - 1, 0);
    if (out_fd > STDERR_FILENO) ::close_range(static_cast<unsigned>(out_fd) + 1, ~0U, 0);
    // A hung libbabeltrace2 never writes, so it would not notice its parent's end by SIGPIPE.
    std::thread([parent = ::getppid()] {
        while (::getppid() == parent) std::this_thread::sleep_for(std::chrono::seconds(1));
        ::_exit(2);
    }).detach();
}

// Test hook: the worker kills itself after writing this many chunk frames.
std::optional<std::int64_t> kill_after_chunks() {
    return env_number("APCGATE_CTF_WORKER_KILL_AFTER_CHUNKS");
}

bool send_end(FrameBytes& frame, const FrameSink& sink) {
    frame.clear();
    encode_end(frame);
    return sink(frame);
}

}  // namespace

std::uint64_t worker_memory_limit() {
    const auto mb = env_number("APCGATE_CTF_WORKER_MEMORY_MB");
    return mb ? static_cast<std::uint64_t>(*mb) << 20 : kWorkerMemoryLimit;
}

std::chrono::milliseconds worker_idle_limit() {
    const auto ms = env_number("APCGATE_CTF_WORKER_IDLE_MS");
    return ms ? std::chrono::milliseconds(*ms) : std::chrono::milliseconds(kWorkerIdleLimit);
}

void probe_worker(const std::vector<std::filesystem::path>& traces, const FrameSink& sink) {
    FrameBytes frame;
    auto probe = probe_traces(traces);
    if (probe)
        encode_probe(*probe, frame);
    else
        encode_error(probe.error(), frame);
    if (sink(frame)) send_end(frame, sink);
}

void decode_worker(const std::vector<std::filesystem::path>& traces, model::Nanos zero,
                   model::Nanos origin, const std::vector<std::string>& counters,
                   const FrameSink& sink) {
    // The child's own keys (3, 4, ... in the order given); the parent maps them back.
    model::CounterCatalog catalog;
    model::Configuration config;
    for (const auto& name : counters) {
        model::CounterSpec spec;
        spec.counter = name;
        catalog.add(spec);
        config.counters.push_back({name, {}, {}, {}});
    }
    const auto keyed = model::CaptureCounters::assign(catalog, config);
    ingest::IngestReport counts("ctf", "");
    EventMapper mapper(keyed, zero, counts);
    std::vector<Error> rejected;
    FrameBytes frame;
    auto graph = TraceGraph::open(traces, mapper, rejected);
    if (!graph) {
        encode_error(graph.error(), frame);
        if (sink(frame)) send_end(frame, sink);
        return;
    }
    for (auto& e : rejected) counts.stopped(std::move(e));
    mapper.set_path_shown([&g = **graph](std::string_view path) { return g.shown_path(path); });
    DecodeBound bound(traces);
    const auto kill_after = kill_after_chunks();
    Chunk chunk;
    std::int64_t sent = 0;  // chunk frames
    for (bool done = false; !done;) {
        chunk.events.clear();
        chunk.texts.clear();
        // A chunk may pass kChunkEvents by one batch's worth: growing it would move every event.
        chunk.events.reserve(kChunkEvents + kChunkSlack);
        chunk.texts.reserve(kChunkTextBytes);
        mapper.set_output(&chunk.events, &chunk.texts);
        if (sent == 0) mapper.start_counters(std::max<model::Nanos>(0, origin - zero));
        while (chunk.events.size() < kChunkEvents && chunk.texts.size() < kChunkTextBytes) {
            const TraceGraph::Step step = (*graph)->step();
            if (step == TraceGraph::Step::Messages) {
                if (!bound.exceeded(mapper.events())) continue;
                counts.stopped(bound.error(mapper.events()));
            }
            if (step == TraceGraph::Step::Failed) {
                Error e = (*graph)->failure();
                e.record = "CTF data stream";
                e.while_("decoding after " + std::to_string(mapper.events()) + " events");
                counts.stopped(std::move(e));
            }
            mapper.finish();
            done = true;
            break;
        }
        mapper.flush_counts();
        mapper.set_output(nullptr);
        chunk.counts = std::exchange(counts, ingest::IngestReport("ctf", ""));
        chunk.watermark = mapper.last_ts();
        chunk.clock_ns = mapper.last_clock_ns();
        chunk.finished = done;
        frame.clear();
        encode_chunk(chunk, frame);
        if (!sink(frame)) return;
        if (++sent == kill_after) ::raise(SIGKILL);
    }
    send_end(frame, sink);
}

int run_worker(int argc, char** argv, int out_fd) {
    set_limits(out_fd);
    const auto usage = [] {
        std::cerr << "usage: apcgate " << kWorkerCommand
                  << " probe TRACE... | decode ZERO ORIGIN NCOUNTERS COUNTER... TRACE...\n";
        return 2;
    };
    if (argc < 1) return usage();
    const std::string_view mode = argv[0];
    const FrameSink sink = [out_fd](std::span<const std::uint8_t> f) {
        return write_all(out_fd, f);
    };
    if (mode == "probe") {
        probe_worker({argv + 1, argv + argc}, sink);
        return 0;
    }
    if (mode != "decode" || argc < 4) return usage();
    const auto zero = parse_int(argv[1]);
    const auto origin = parse_int(argv[2]);
    const auto ncounters = parse_int(argv[3]);
    if (!zero || !origin || !ncounters || *ncounters < 0 || *ncounters > argc - 4) return usage();
    const int first_trace = 4 + static_cast<int>(*ncounters);
    decode_worker({argv + first_trace, argv + argc}, *zero, *origin, {argv + 4, argv + first_trace},
                  sink);
    return 0;
}

}  // namespace apcgate::collectors::ctf
