// The CPU-bound workload of capture_overhead.sh: one thread per online CPU, each doing the same
// fixed amount of arithmetic (no memory traffic, no system calls), so a recorder can only slow
// it by the CPU time it takes from it: its own threads, and the kernel's work for its events
// (timer samples and their call stacks, switch records). Prints "Total time: S [sec]", the line
// `perf bench` prints, so the script reads both workloads the same way.
//
// Usage: busy_threads [ROUNDS]   (default 400 million per thread)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

// xorshift64: a dependent chain the compiler cannot fold away.
std::uint64_t spin(std::uint64_t rounds, std::uint64_t seed) {
    std::uint64_t x = seed | 1;
    for (std::uint64_t i = 0; i < rounds; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    return x;
}

}  // namespace

int main(int argc, char** argv) {
    const std::uint64_t rounds = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 400'000'000ULL;
    const unsigned cpus = std::max(1U, std::thread::hardware_concurrency());
    std::vector<std::uint64_t> results(cpus);
    std::vector<std::thread> threads;
    const auto start = std::chrono::steady_clock::now();
    for (unsigned t = 0; t < cpus; ++t)
        threads.emplace_back([&results, t, rounds] { results[t] = spin(rounds, t + 1); });
    for (auto& th : threads) th.join();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::uint64_t sum = 0;
    for (const auto r : results) sum ^= r;
    std::printf("%u threads, checksum %016llx\n", cpus, static_cast<unsigned long long>(sum));
    std::printf("     Total time: %.3f [sec]\n", took.count());
    return 0;
}
