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

TEST(TracepointRelease, TheHelperClosesTheEventsAndLeavesThisProcessAlone) {
    Pipe event_a, event_b, capture_file;
    const int a = event_a.write.get();
    const int b = event_b.write.get();
    std::vector<std::vector<PerfFd>> groups(2);
    groups[0].push_back(std::move(event_a.write));
    groups[1].push_back(std::move(event_b.write));

    const auto helper = release_tracepoint_events(groups, TracepointRelease::Helper);
    ASSERT_TRUE(helper.has_value());
    EXPECT_TRUE(groups.empty());
    // This process's copies are gone at once; its other descriptors are untouched.
    EXPECT_FALSE(open_here(a));
    EXPECT_FALSE(open_here(b));
    EXPECT_TRUE(open_here(capture_file.write.get()));

    int status = -1;
    ASSERT_EQ(::waitpid(*helper, &status, 0), *helper);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    // The helper closed its copies of the events before it exited ...
    EXPECT_TRUE(at_end(event_a, 1000));
    EXPECT_TRUE(at_end(event_b, 1000));
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
    Pipe event_a, event_b;
    std::vector<std::vector<PerfFd>> groups(2);
    groups[0].push_back(std::move(event_a.write));
    groups[1].push_back(std::move(event_b.write));
    EXPECT_FALSE(release_tracepoint_events(groups, TracepointRelease::Threads).has_value());
    EXPECT_TRUE(groups.empty());
    EXPECT_TRUE(at_end(event_a, 0));
    EXPECT_TRUE(at_end(event_b, 0));
}

TEST(TracepointRelease, NoEventsNoHelper) {
    std::vector<std::vector<PerfFd>> groups;
    EXPECT_FALSE(release_tracepoint_events(groups, TracepointRelease::Helper).has_value());
}

}  // namespace
}  // namespace apcgate::collectors::perf
