// Records the raw bytes of one real perf ring for the decode tests (tests/perf/data/ring_*):
//   perf_ring_record OUT_PREFIX CPU COMMAND...
// opens the collector's side-band and sched:sched_switch events on CPU (system-wide; needs
// root), runs COMMAND pinned to that CPU, then writes OUT_PREFIX.bin (the ring's bytes from
// position 0, wrapped records joined) and OUT_PREFIX.ids (one "id sample_type role" line per
// event). Not run by ctest: its output is committed test data.
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "collectors/perf/perf_session.hpp"
#include "collectors/perf/probe.hpp"
#include "protocol/wire/byte_text.hpp"

using namespace apcgate::collectors::perf;  // NOLINT: a small tool

namespace {

int run(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s OUT_PREFIX CPU COMMAND...\n", argv[0]);
        return 2;
    }
    const std::string prefix = argv[1];
    const int cpu = std::stoi(argv[2]);
    ProbeOptions po;
    po.opener = kernel_opener();
    const Capabilities caps = probe_capabilities(po);
    if (!caps.sched_switch) {
        std::fprintf(stderr, "sched:sched_switch does not open here\n");
        return 1;
    }
    SessionPlan plan;
    plan.cpus = {cpu};
    plan.sched_switch_id = caps.sched_switch->id;
    plan.ring_bytes = 256u << 10;
    apcgate::collectors::ingest::IngestReport report("perf", "record");
    RecordNormalizer normalizer({}, report);
    LayoutTable layouts;
    std::vector<std::string> warnings;
    auto session = PerfSession::open(plan, kernel_opener(), layouts, normalizer, warnings);
    if (!session || !(*session)->enable()) return 1;

    const pid_t child = ::fork();
    if (child == 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        ::sched_setaffinity(0, sizeof set, &set);
        ::execvp(argv[3], argv + 3);
        ::_exit(127);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    (*session)->disable();

    std::vector<std::uint8_t> bytes;
    auto drained = (*session)->rings().front().ring.drain(bytes);
    if (!drained || drained->position != 0) return 1;
    std::ofstream(prefix + ".bin", std::ios::binary)
        .write(apcgate::wire::text_of(bytes).data(), static_cast<std::streamsize>(bytes.size()));
    std::ofstream ids(prefix + ".ids");
    for (std::uint64_t id = 0; id < 1u << 20; ++id)
        if (const std::uint64_t* st = layouts.find(id)) ids << id << ' ' << *st << '\n';
    std::printf("%zu bytes, child %d\n", bytes.size(), static_cast<int>(child));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {  // std::stoi's, for one
        std::fprintf(stderr, "perf_ring_record: %s\n", e.what());
        return 2;
    }
}
