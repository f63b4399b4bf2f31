// Closing a capture's tracepoint events (collectors/perf/tracepoint_release.hpp), with pipes
// standing in for the events: what is closed here, what the helper closes, and that it touches
// nothing of this process's.
#include "collectors/perf/tracepoint_release.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <map>

namespace apcgate::collectors::perf {
namespace {

struct Pipe {
    Pipe() {
        std::array<int, 2> fds{};
        EXPECT_EQ(::pipe2(fds.data(), O_CLOEXEC), 0);
        read.reset(fds[0]);
        write.reset(fds[1]);
    }
    PerfFd read, write;
};

bool open_here(int fd) {
    return ::fcntl(fd, F_GETFD) != -1;
}

// True when the read end reports end of file within `ms`: every copy of the write end, in every
// process, is closed.
bool at_end(const Pipe& p, int ms) {
    pollfd pfd{p.read.get(), POLLIN, 0};
    if (::poll(&pfd, 1, ms) != 1) return false;
    char c = 0;
    return ::read(p.read.get(), &c, 1) == 0;
}

// Two tracepoints' events (a on two CPUs, b) and one event of no tracepoint (c).
struct Events {
    Pipe a0, a1, b, c;
    std::vector<PerfFd> fds;
    std::map<int, std::uint64_t> tracepoint_of;
    Events() {
        tracepoint_of = {{a0.write.get(), 372}, {a1.write.get(), 372}, {b.write.get(), 568}};
        fds.push_back(std::move(a0.write));
        fds.push_back(std::move(c.write));
        fds.push_back(std::move(b.write));
        fds.push_back(std::move(a1.write));
    }
};

TEST(TracepointRelease, TheHelperClosesTheEventsAndLeavesThisProcessAlone) {
    Events ev;
    Pipe capture_file;
    std::vector<int> numbers;
    for (const PerfFd& fd : ev.fds) numbers.push_back(fd.get());

    const auto helper = close_events(ev.fds, ev.tracepoint_of, TracepointRelease::Helper);
    ASSERT_TRUE(helper.has_value());
    EXPECT_TRUE(ev.fds.empty());
    // This process's copies are gone at once; its other descriptors are untouched.
    for (const int fd : numbers) EXPECT_FALSE(open_here(fd)) << fd;
    EXPECT_TRUE(open_here(capture_file.write.get()));

    int status = -1;
    ASSERT_EQ(::waitpid(*helper, &status, 0), *helper);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    // The helper closed its copies of the events before it exited ...
    for (const Pipe* p : {&ev.a0, &ev.a1, &ev.b, &ev.c}) EXPECT_TRUE(at_end(*p, 1000));
    // ... and closing its copy of everything else did not close this process's.
    EXPECT_TRUE(open_here(capture_file.write.get()));
    EXPECT_FALSE(at_end(capture_file, 0));
    EXPECT_EQ(::write(capture_file.write.get(), "x", 1), 1);
    capture_file.write.reset();
    char c = 0;
    EXPECT_EQ(::read(capture_file.read.get(), &c, 1), 1);
    EXPECT_TRUE(at_end(capture_file, 1000));
}

TEST(TracepointRelease, ThreadsCloseEverythingBeforeReturning) {
    Events ev;
    EXPECT_FALSE(close_events(ev.fds, ev.tracepoint_of, TracepointRelease::Threads).has_value());
    EXPECT_TRUE(ev.fds.empty());
    for (const Pipe* p : {&ev.a0, &ev.a1, &ev.b, &ev.c}) EXPECT_TRUE(at_end(*p, 0));
}

TEST(TracepointRelease, NoTracepointNoHelper) {
    Pipe counter;
    std::vector<PerfFd> fds;
    fds.push_back(std::move(counter.write));
    EXPECT_FALSE(close_events(fds, {}, TracepointRelease::Helper).has_value());
    EXPECT_TRUE(fds.empty());
    EXPECT_TRUE(at_end(counter, 0));
}

}  // namespace
}  // namespace apcgate::collectors::perf
