// DataLinks driven by hand, without the I/O thread, so a test decides when the loop "runs":
// what a loaded machine does to the daemon (a tick long after the bytes arrived) is reproduced
// exactly instead of hoped for.
#include "collectors/annotate/data_links.hpp"

#include <gtest/gtest.h>
#include <sys/epoll.h>

#include <array>
#include <chrono>

#include "annotate_client.hpp"
#include "collectors/annotate/sockets.hpp"

namespace apcgate::annotate_test {
namespace {

using namespace collectors::annotate;
using namespace std::chrono_literals;

class DataLinksTest : public ::testing::Test {
  protected:
    DataLinksTest() : log_([](LogLevel, const std::string&) {}) {
        config_.socket_name = unique_socket_name("links");
        config_.tcp_port = 0;
        config_.handshake_timeout_ns = 300'000'000;
        EXPECT_TRUE(reactor_.open().ok());
        links_.begin_capture(budget_for(config_, 10'000'000));
    }
    ~DataLinksTest() override { links_.end_capture(); }

    // Serves only the listeners: the connections are accepted, nothing of theirs is read.
    void accept_waiting(std::size_t expected) {
        std::array<epoll_event, 16> events{};
        const auto until = std::chrono::steady_clock::now() + 5s;
        while (links_.links() < expected && std::chrono::steady_clock::now() < until) {
            const int n = reactor_.wait(events, 50);
            for (int i = 0; i < n; ++i) {
                const auto& e = events[static_cast<std::size_t>(i)];
                if (Reactor::role_of(e) == Role::DataListener)
                    links_.on_listener(Reactor::fd_of(e));
            }
        }
        ASSERT_EQ(links_.links(), expected);
    }

    AnnotateConfig config_;
    Reactor reactor_;
    Handover handover_;
    StatsBox stats_;
    Log log_;
    DataLinks links_{reactor_, handover_, stats_, log_, config_};
};

// A handshake that arrived in time but was not read before the deadline (the daemon's thread did
// not run: a busy machine) is not a client's fault; a connection that sent nothing is.
TEST_F(DataLinksTest, AHandshakeWaitingUnreadAtTheDeadlineCountsAsInTime) {
    Conn sent(connect_abstract(config_.socket_name));
    Conn silent(connect_abstract(config_.socket_name));
    ASSERT_TRUE(sent.send_in_pieces(handshake(1, 1)));
    accept_waiting(2);
    links_.on_tick(monotonic_now_ns() + 10 * config_.handshake_timeout_ns);
    EXPECT_EQ(links_.links(), 1U);
    EXPECT_EQ(stats_.snapshot().counts[collectors::annotate::AnnotateStat::DroppedNoHandshake], 1U);
    EXPECT_FALSE(sent.wait_closed(100ms));
    EXPECT_TRUE(silent.wait_closed(5s));
}

}  // namespace
}  // namespace apcgate::annotate_test
