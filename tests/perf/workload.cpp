// A known workload for the perf collector's live tests. Steps run in the order given:
//   pingpong N   two threads named "ping" and "pong", on one CPU, hand a byte back and forth N
//                times through pipes, so each is switched in at least N times
//   crosspong N  the same with threads "xping" and "xpong" each on a CPU of its own (the first
//                two this process may use): a hand-over wakes a CPU from idle and sends the
//                other one idle, unless the byte is back before its reader waits for it; at the
//                end each thread writes "NAME-switches COUNT", the times the kernel switched it
//                out (getrusage(RUSAGE_THREAD): voluntary and involuntary)
//   burn MS      the main thread (renamed "burner") spins in apcgate_test_burn() for MS ms
//   faults MB    touches MB of fresh anonymous memory (one page fault per page)
//   threads N    starts N threads that keep the process's name ("thread TID" each) and joins them
//   exec PATH    runs PATH (no arguments) in a child process ("child PID") and waits for it
//   usage        writes "usage-us N": the CPU time the kernel charged this process so far
//                (getrusage RUSAGE_SELF, user + system, in microseconds)
// Options: --out FILE writes "ping TID", "pong TID", "burner TID" (...) lines as the tids become
// known; --wait-stdin blocks until a byte arrives on stdin (lets a test attach first).
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

int tid() {
    return static_cast<int>(::syscall(SYS_gettid));
}

std::ofstream out;
std::mutex out_mutex;

// The ping and pong threads note themselves at the same moment: one whole line at a time (their
// pieces interleaved, "ping pong 41 42", and a test read no tid at all).
void note(const char* what, int id) {
    const std::lock_guard lock(out_mutex);
    if (out.is_open()) out << what << ' ' << id << std::endl;
}

// Two threads hand a byte back and forth n times, `ping_cpu` and `pong_cpu` their CPUs; with
// `count_switches` each notes how often it was switched out.
void pingpong(long n, int ping_cpu, int pong_cpu, const char* ping_name, const char* pong_name,
              bool count_switches) {
    int ab[2], ba[2];
    if (::pipe(ab) != 0 || ::pipe(ba) != 0) std::exit(2);
    auto player = [n, count_switches](const char* name, int cpu, int in, int outfd, bool serves) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        ::pthread_setaffinity_np(::pthread_self(), sizeof set, &set);
        ::pthread_setname_np(::pthread_self(), name);
        note(name, tid());
        char c = 'x';
        for (long i = 0; i < n; ++i) {
            if (serves && ::write(outfd, &c, 1) != 1) std::exit(3);
            if (::read(in, &c, 1) != 1) std::exit(3);
            if (!serves && ::write(outfd, &c, 1) != 1) std::exit(3);
        }
        rusage ru{};
        if (count_switches && ::getrusage(RUSAGE_THREAD, &ru) == 0)
            note((std::string(name) + "-switches").c_str(),
                 static_cast<int>(ru.ru_nvcsw + ru.ru_nivcsw));
    };
    std::thread ping(player, ping_name, ping_cpu, ba[0], ab[1], true);
    std::thread pong(player, pong_name, pong_cpu, ab[0], ba[1], false);
    ping.join();
    pong.join();
    for (int fd : {ab[0], ab[1], ba[0], ba[1]}) ::close(fd);
}

// The first two CPUs this process may run on (the same one twice when it has only one).
std::pair<int, int> two_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) != 0) std::exit(2);
    int first = -1;
    for (int c = 0; c < CPU_SETSIZE; ++c) {
        if (!CPU_ISSET(c, &set)) continue;
        if (first >= 0) return {first, c};
        first = c;
    }
    return {first, first};
}

}  // namespace

// Not inlined and not static, so the symbol table names it and samples land in it.
extern "C" __attribute__((noinline)) std::uint64_t apcgate_test_burn(long ms) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    volatile std::uint64_t x = 1;
    while (std::chrono::steady_clock::now() < end)
        for (int i = 0; i < 100000; ++i) x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x;
}

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto arg = [&]() -> long {
            return i + 1 < argc ? std::strtol(argv[++i], nullptr, 10) : 0;
        };
        if (a == "--out" && i + 1 < argc) {
            out.open(argv[++i]);
        } else if (a == "--wait-stdin") {
            char c;
            if (::read(0, &c, 1) != 1) return 4;
        } else if (a == "pingpong") {
            // Both on one CPU: every hand-over then needs a context switch, so each thread is
            // switched in at least once per round.
            const int cpu = ::sched_getcpu();
            pingpong(arg(), cpu, cpu, "ping", "pong", false);
        } else if (a == "crosspong") {
            const auto [a_cpu, b_cpu] = two_cpus();
            pingpong(arg(), a_cpu, b_cpu, "xping", "xpong", true);
        } else if (a == "burn") {
            ::pthread_setname_np(::pthread_self(), "burner");
            note("burner", tid());
            apcgate_test_burn(arg());
        } else if (a == "threads") {
            std::vector<std::thread> threads;
            for (long n = arg(); n > 0; --n)
                threads.emplace_back([] {
                    note("thread", tid());
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                });
            for (auto& t : threads) t.join();
        } else if (a == "exec" && i + 1 < argc) {
            const char* path = argv[++i];
            const pid_t child = ::fork();
            if (child < 0) return 6;
            if (child == 0) {
                ::execl(path, path, static_cast<char*>(nullptr));
                ::_exit(127);
            }
            note("child", child);
            int status = 0;
            ::waitpid(child, &status, 0);
        } else if (a == "usage") {
            rusage ru{};
            if (::getrusage(RUSAGE_SELF, &ru) != 0) return 7;
            const long us = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1'000'000L +
                            ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
            note("usage-us", static_cast<int>(us));
        } else if (a == "faults") {
            const std::size_t bytes = static_cast<std::size_t>(arg()) << 20;
            void* p =
                ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) return 5;
            for (std::size_t off = 0; off < bytes; off += 4096) static_cast<char*>(p)[off] = 1;
            ::munmap(p, bytes);
        } else {
            std::fprintf(stderr, "unknown step %s\n", a.c_str());
            return 2;
        }
    }
    return 0;
}
