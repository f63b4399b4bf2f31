// The kernel's share of a capture's cost, alone: capture_overhead.sh runs the workloads under
// this as well as under apcgate and perf record. It opens, on every online CPU, exactly the
// cpu-clock sampler apcgate opens (collectors/perf/event_attrs.hpp: 1 kHz, user and kernel call
// stacks) and nothing else, and empties the rings every 100 ms without looking at the records.
// What the workload loses under it is what any recorder of 1 kHz call stacks costs it, whatever
// that recorder does with the samples: the timer interrupts and the stack walks are the kernel's,
// spent in the interrupted threads.
//
// Prints "sampling_floor: recording" once every event is enabled, runs until SIGINT or SIGTERM,
// then prints the bytes of samples the kernel wrote and the records it lost.
//
// Usage: sampling_floor [HZ] [--no-callchain]   (default 1000 Hz, with call stacks; needs root)
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <thread>
#include <vector>

#include "collectors/perf/capture_plan.hpp"
#include "collectors/perf/event_attrs.hpp"
#include "collectors/perf/perf_fd.hpp"
#include "collectors/perf/ring_buffer.hpp"

namespace {

namespace perf = apcgate::collectors::perf;

volatile std::sig_atomic_t g_stop = 0;

void on_signal(int) {
    g_stop = 1;
}

int run(int argc, char** argv) {
    int hz = 1000;
    bool callchain = true;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--no-callchain") == 0)
            callchain = false;
        else
            hz = static_cast<int>(std::strtol(argv[i], nullptr, 10));
    }
    if (hz <= 0) {
        std::fprintf(stderr, "sampling_floor: HZ must be a positive number\n");
        return 2;
    }
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);

    const auto open = perf::kernel_opener();
    const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
    std::vector<perf::PerfFd> fds;
    std::vector<perf::PerfRing> rings;
    const std::size_t ring_bytes = perf::ring_bytes_for(true, static_cast<std::size_t>(cpus));
    for (int cpu = 0; cpu < cpus; ++cpu) {
        perf_event_attr attr = perf::clock_sampler_attr(perf::AttrCommon{}, hz, callchain);
        const int fd = open(attr, -1, cpu, -1, 0);
        if (fd < 0) {
            std::fprintf(stderr, "sampling_floor: %s\n",
                         perf::open_failure("cpu-clock", cpu, fd).c_str());
            return 1;
        }
        fds.emplace_back(fd);
        auto ring = perf::PerfRing::map(fd, ring_bytes);
        if (!ring) {
            std::fprintf(stderr, "sampling_floor: %s\n", ring.error().to_string().c_str());
            return 1;
        }
        rings.push_back(std::move(*ring));
    }
    for (const auto& fd : fds) ::ioctl(fd.get(), PERF_EVENT_IOC_ENABLE, 0);
    std::printf("sampling_floor: recording\n");
    std::fflush(stdout);

    std::vector<std::uint8_t> scratch;
    std::uint64_t bytes = 0;
    std::uint64_t lost = 0;
    while (true) {
        for (auto& ring : rings) {
            scratch.clear();
            auto drained = ring.drain(scratch);
            if (!drained) continue;
            bytes += drained->bytes;
            // PERF_RECORD_LOST: the only record kind read, to say whether the floor kept up.
            for (std::size_t at = 0; at + 8 <= scratch.size();) {
                std::uint32_t type = 0;
                std::uint16_t size = 0;
                std::memcpy(&type, scratch.data() + at, 4);
                std::memcpy(&size, scratch.data() + at + 6, 2);
                if (size < 8) break;
                if (type == PERF_RECORD_LOST && at + 24 <= scratch.size()) {
                    std::uint64_t n = 0;
                    std::memcpy(&n, scratch.data() + at + 16, 8);
                    lost += n;
                }
                at += size;
            }
        }
        if (g_stop) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::printf("sampling_floor: %llu bytes of samples, %llu lost\n",
                static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(lost));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sampling_floor: %s\n", e.what());
    }
    return 1;
}
