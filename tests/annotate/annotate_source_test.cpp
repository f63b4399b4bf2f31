// AnnotateSource with real sockets, in process: where it listens and when, the parent's
// capture-start byte, many connections from many threads in odd-sized writes carried byte for
// byte under one id each, connections made before and during the capture, streams cut short,
// hostile clients dropped with a reason while the others go on, and a flood kept bounded.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <set>
#include <thread>

#include "source_support.hpp"

namespace apcgate::annotate_test {
namespace {

using namespace std::chrono_literals;
using collectors::annotate::AnnotateStat;
using collectors::annotate::kAnnotateStatistics;

bool ipv6_loopback() {
    const int fd = ::socket(AF_INET6, SOCK_STREAM, 0);
    if (fd < 0) return false;
    ::close(fd);
    return true;
}

// The streams carried for each handshake tid.
std::map<std::uint32_t, CarriedStream> by_tid(const std::vector<model::Event>& events) {
    std::vector<std::string> problems;
    std::map<std::uint32_t, CarriedStream> out;
    for (auto& s : carried_streams(events, problems)) out[handshake_tid(s.bytes)] = std::move(s);
    for (const auto& p : problems) ADD_FAILURE() << p;
    return out;
}

TEST_F(SourceTest, ParentIsToldWhenACaptureStartsAndDataListensOnlyDuringIt) {
    make();
    Conn parent(connect_abstract(config_.parent_socket_name()));
    ASSERT_TRUE(parent.ok()) << log_text();
    EXPECT_EQ(connect_abstract(config_.socket_name), -1) << "no capture: data is refused";
    EXPECT_EQ(connect_tcp(config_.tcp_port), -1);
    EXPECT_EQ(connect_tcp(config_.data_tcp_port()), -1);
    EXPECT_FALSE(parent.read_byte(100ms));

    start();
    EXPECT_EQ(parent.read_byte(5s), std::optional<std::uint8_t>(0));
    Conn data(connect_abstract(config_.socket_name));
    EXPECT_TRUE(data.ok());
    Conn tcp_parent(connect_tcp(config_.tcp_port));
    EXPECT_TRUE(tcp_parent.ok());
    Conn tcp_data(connect_tcp(config_.data_tcp_port()));
    EXPECT_TRUE(tcp_data.ok());
    if (ipv6_loopback()) {
        Conn v6(connect_tcp(config_.data_tcp_port(), true));
        EXPECT_TRUE(v6.ok());
    }
    ASSERT_TRUE(
        poll_until([&] { return source_->stats().counts[AnnotateStat::ParentClients] >= 2; }));
    stop();
    EXPECT_TRUE(data.wait_closed(5s)) << "the capture's data connections are closed";
    EXPECT_EQ(tcp_parent.read_byte(5s), std::optional<std::uint8_t>(0));
    EXPECT_TRUE(tcp_parent.wait_closed(5s)) << "TCP parents are closed at the end, as gatord does";
    EXPECT_EQ(connect_abstract(config_.socket_name), -1);
    EXPECT_EQ(connect_tcp(config_.data_tcp_port()), -1);

    // The Unix parent stays connected and hears about the next capture too.
    start();
    EXPECT_EQ(parent.read_byte(5s), std::optional<std::uint8_t>(0));
    stop();
    EXPECT_GE(source_->stats().counts[AnnotateStat::ParentNotified], 2U);
}

TEST_F(SourceTest, AStartWithoutAStopClosesTheOldCaptureFirst) {
    make();
    Conn parent(connect_abstract(config_.parent_socket_name()));
    start();
    Conn old(connect_abstract(config_.socket_name));
    ASSERT_TRUE(old.send_in_pieces(handshake(3, 3)));
    ASSERT_TRUE(poll_until([&] { return !events_.empty(); }));
    start();  // no stop() in between
    EXPECT_TRUE(old.wait_closed(5s));
    Conn fresh(connect_abstract(config_.socket_name));
    EXPECT_TRUE(fresh.ok()) << log_text();
    EXPECT_EQ(parent.read_byte(5s), std::optional<std::uint8_t>(0));
    EXPECT_EQ(parent.read_byte(5s), std::optional<std::uint8_t>(0));
    stop();
    EXPECT_EQ(source_->stats().counts[AnnotateStat::ParentNotified], 2U);
}

TEST_F(SourceTest, ManyThreadsAndConnectionsAreCarriedByteForByte) {
    make();
    start();
    constexpr int kThreads = 4, kConnections = 3;
    const bool v6 = ipv6_loopback();
    std::mutex mu;
    std::map<std::uint32_t, Bytes> sent;
    std::vector<Conn> open;
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    threads.reserve(kThreads);
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            std::vector<Conn> conns;
            conns.reserve(kConnections);
            std::vector<Bytes> streams;
            for (int k = 0; k < kConnections; ++k) {
                const auto tid = static_cast<std::uint32_t>(1000 + t * 10 + k);
                const int transport = (t + k) % 3;
                conns.emplace_back(transport == 0   ? connect_abstract(config_.socket_name)
                                   : transport == 1 ? connect_tcp(config_.data_tcp_port())
                                                    : connect_tcp(config_.data_tcp_port(), v6));
                Bytes s = handshake(tid, static_cast<std::uint32_t>(::getpid()));
                for (int round = 0; round < 3; ++round) {
                    const Bytes m = every_kind(std::int64_t{1'000'000} * (round + 1),
                                               std::to_string(tid), round == 1 ? 100'000 : 37);
                    s.insert(s.end(), m.begin(), m.end());
                }
                streams.push_back(std::move(s));
            }
            // Interleave the connections of this thread, in odd-sized writes.
            const std::vector<std::size_t> sizes{1, 3, 7, 61, 1021, 4099, 65537, 2};
            std::vector<std::size_t> pos(kConnections, 0);
            for (bool more = true; more;) {
                more = false;
                for (int k = 0; k < kConnections; ++k) {
                    auto& s = streams[static_cast<std::size_t>(k)];
                    auto& p = pos[static_cast<std::size_t>(k)];
                    if (p >= s.size()) continue;
                    const std::size_t n = std::min<std::size_t>(9000, s.size() - p);
                    const Bytes piece(s.begin() + static_cast<std::ptrdiff_t>(p),
                                      s.begin() + static_cast<std::ptrdiff_t>(p + n));
                    if (!conns[static_cast<std::size_t>(k)].send_in_pieces(piece, sizes))
                        ++failures;
                    p += n;
                    more = true;
                }
            }
            std::lock_guard lock(mu);
            for (auto& s : streams) sent[handshake_tid(s)] = std::move(s);
            for (auto& c : conns) open.push_back(std::move(c));  // closed once all arrived
        });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(failures.load(), 0);
    // Everything sent arrives while the connections are open, each under an id of its own.
    ASSERT_TRUE(poll_until([&] {
        std::size_t bytes = 0;
        for (const auto& e : events_)
            if (const auto* d = std::get_if<model::ExternalData>(&e)) bytes += d->bytes.size();
        std::size_t want = 0;
        for (const auto& [tid, s] : sent) want += s.size();
        return bytes == want;
    })) << log_text();
    EXPECT_EQ(disconnects(), 0U);
    std::set<std::int32_t> open_ids;
    for (const auto& e : events_)
        if (const auto* d = std::get_if<model::ExternalData>(&e)) open_ids.insert(d->id);
    EXPECT_EQ(open_ids.size(), sent.size()) << "one id per open connection";
    open.clear();  // the applications close: a disconnect each
    ASSERT_TRUE(poll_until([&] { return disconnects() == sent.size(); })) << log_text();
    stop();
    const auto carried = by_tid(events_);
    ASSERT_EQ(carried.size(), sent.size());
    for (const auto& [tid, bytes] : sent) {
        SCOPED_TRACE(tid);
        auto it = carried.find(tid);
        ASSERT_NE(it, carried.end());
        EXPECT_TRUE(it->second.bytes == bytes)
            << "carried " << it->second.bytes.size() << " of " << bytes.size();
        EXPECT_TRUE(it->second.disconnected);
    }
    const auto stats = source_->stats();
    EXPECT_EQ(stats.counts[AnnotateStat::Connections], sent.size());
    EXPECT_EQ(stats.messages[0x0c], sent.size() * 3);
    ASSERT_EQ(stats.apps.size(), 1U);
    EXPECT_EQ(stats.apps.begin()->second.connections, sent.size());
    EXPECT_TRUE(logged("annotations from pid " + std::to_string(::getpid()))) << log_text();
    // What the daemon logs at the capture's end: this capture's share, in table order.
    const auto statistics = source_->statistics();
    ASSERT_EQ(statistics.size(), kAnnotateStatistics.size());
    const auto& connections = statistics[static_cast<std::size_t>(AnnotateStat::Connections)];
    EXPECT_EQ(connections.spec->name, "annotate_connections");
    EXPECT_EQ(connections.value, sent.size());
}

// As the library does: the parent first; a refused data connect means "wait for the byte".
TEST_F(SourceTest, ApplicationsBeforeAndDuringTheCapture) {
    make();
    std::atomic<bool> refused_first{false};
    std::thread early([&] {
        Conn parent(connect_abstract(config_.parent_socket_name()));
        Conn data(connect_abstract(config_.socket_name));
        if (!data.ok()) {
            refused_first = true;
            if (!parent.read_byte(10s)) return;
            data = Conn(connect_abstract(config_.socket_name));
        }
        data.send_in_pieces(handshake(501, 500));
        data.send_in_pieces(every_kind(1, "early"), {5});
    });
    // Wait until the early application is waiting on its parent connection.
    ASSERT_TRUE(poll_until([&] {
        return refused_first.load() && source_->stats().counts[AnnotateStat::ParentClients] == 1;
    }));
    start();
    early.join();
    Conn late(connect_abstract(config_.socket_name));
    ASSERT_TRUE(late.ok());
    late.send_in_pieces(handshake(601, 600));
    late.send_in_pieces(every_kind(1, "late"), {11});
    late.close();
    ASSERT_TRUE(poll_until([&] { return disconnects() == 2; })) << log_text();
    stop();
    const auto carried = by_tid(events_);
    Bytes early_bytes = handshake(501, 500), late_bytes = handshake(601, 600);
    const Bytes early_kinds = every_kind(1, "early"), late_kinds = every_kind(1, "late");
    early_bytes.insert(early_bytes.end(), early_kinds.begin(), early_kinds.end());
    late_bytes.insert(late_bytes.end(), late_kinds.begin(), late_kinds.end());
    ASSERT_TRUE(carried.count(501) && carried.count(601));
    EXPECT_TRUE(carried.at(501).bytes == early_bytes);
    EXPECT_TRUE(carried.at(601).bytes == late_bytes);
}

TEST_F(SourceTest, StreamsCutShortAreForwardedAsTheyArrivedThenDisconnected) {
    make();
    start();
    Bytes full = handshake(7, 7);
    const Bytes kinds = every_kind(1, "cut", 2000);
    full.insert(full.end(), kinds.begin(), kinds.end());
    // Cut inside a message header, inside a payload, inside the visual's image.
    std::vector<Bytes> cuts;
    for (std::size_t at : {std::size_t{22}, full.size() / 3, full.size() - 3}) {
        cuts.emplace_back(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(at));
        cuts.back()[11] = static_cast<std::uint8_t>(cuts.size());  // distinct tids 1, 2, 3
    }
    for (const auto& c : cuts) {
        Conn conn(connect_abstract(config_.socket_name));
        ASSERT_TRUE(conn.send_in_pieces(c, {13}));
    }
    ASSERT_TRUE(poll_until([&] { return disconnects() == cuts.size(); })) << log_text();
    stop();
    const auto carried = by_tid(events_);
    for (std::uint32_t tid = 1; tid <= cuts.size(); ++tid) {
        ASSERT_TRUE(carried.count(tid));
        EXPECT_TRUE(carried.at(tid).bytes == cuts[tid - 1]) << tid;
        EXPECT_TRUE(carried.at(tid).disconnected);
    }
    EXPECT_EQ(source_->stats().counts[AnnotateStat::Truncated], cuts.size());
    EXPECT_EQ(source_->stats().counts[AnnotateStat::DroppedProtocol], 0U);
}

// Each hostile client is judged by what it sent, never by when: with a long handshake timeout, a
// test thread held up on a loaded machine between a connect and its send cannot turn a protocol
// drop into a timeout.
TEST_F(SourceTest, HostileClientsAreDroppedWithAReasonAndOthersGoOn) {
    config_.handshake_timeout_ns = 60'000'000'000;
    make();
    start();
    Conn good(connect_abstract(config_.socket_name));
    ASSERT_TRUE(good.send_in_pieces(handshake(1, 1)));
    const Bytes prefix = [] {
        Bytes b = handshake(2, 2);
        const Bytes m = string_msg(5, 0, "before the garbage");
        b.insert(b.end(), m.begin(), m.end());
        return b;
    }();
    Conn http(connect_tcp(config_.data_tcp_port()));
    Conn bad_code(connect_abstract(config_.socket_name));
    Conn huge(connect_abstract(config_.socket_name));
    ASSERT_TRUE(http.send_in_pieces(Bytes{'G', 'E', 'T', ' ', '/', ' ', 'H', 'T', 'T', 'P'}));
    ASSERT_TRUE(bad_code.send_in_pieces(prefix, {3}));
    // The source may drop it at the first bad byte, so a later piece's send may fail.
    static_cast<void>(bad_code.send_in_pieces(Bytes{0x99, 1, 2, 3, 4, 5, 6}, {3}));
    Bytes huge_visual = handshake(3, 3);
    huge_visual.insert(huge_visual.end(), {0x05, 0xff, 0xff, 0xff, 0xff});  // a 4 GiB image
    ASSERT_TRUE(huge.send_in_pieces(huge_visual));
    for (Conn* c : {&http, &bad_code, &huge}) EXPECT_TRUE(c->wait_closed(10s));
    // The good connection was not disturbed.
    const Bytes rest = every_kind(9, "good");
    ASSERT_TRUE(good.send_in_pieces(rest, {17}));
    good.close();
    ASSERT_TRUE(poll_until([&] { return disconnects() == 3; })) << log_text();
    stop();
    const auto carried = by_tid(events_);
    EXPECT_EQ(carried.size(), 3U) << "the HTTP client never sent a valid byte";
    Bytes good_bytes = handshake(1, 1);
    good_bytes.insert(good_bytes.end(), rest.begin(), rest.end());
    EXPECT_TRUE(carried.at(1).bytes == good_bytes);
    EXPECT_TRUE(carried.at(2).bytes == prefix) << "only the valid prefix is carried";
    EXPECT_TRUE(carried.at(3).bytes == handshake(3, 3));
    EXPECT_TRUE(logged("not the annotation protocol")) << log_text();
    EXPECT_TRUE(logged("unknown message code 0x99")) << log_text();
    EXPECT_TRUE(logged("exceeds apcgate's limit")) << log_text();
    const auto stats = source_->stats();
    EXPECT_EQ(stats.counts[AnnotateStat::DroppedProtocol], 3U);
    EXPECT_EQ(stats.counts[AnnotateStat::DroppedNoHandshake], 0U);
}

// A client that connects and says nothing, or stops inside its handshake, is dropped when the
// handshake timeout runs out; one whose handshake the source has already read stays. The
// timeout is this test's only subject, so no verdict here hangs on the test thread's timing.
TEST_F(SourceTest, ClientsWithoutAHandshakeAreDroppedWhenTheTimeoutRunsOut) {
    config_.handshake_timeout_ns = 300'000'000;
    make();
    start();
    Conn good(connect_abstract(config_.socket_name));
    Bytes good_bytes = handshake(1, 1);
    const Bytes rest = every_kind(9, "good");
    good_bytes.insert(good_bytes.end(), rest.begin(), rest.end());
    ASSERT_TRUE(good.send_in_pieces(good_bytes));
    ASSERT_TRUE(poll_until([&] { return !events_.empty(); })) << log_text();
    const auto connected = std::chrono::steady_clock::now();
    Conn silent(connect_abstract(config_.socket_name));
    Conn halfway(connect_tcp(config_.data_tcp_port()));
    const Bytes hello = handshake(2, 2);
    const Bytes started(hello.begin(), hello.begin() + 5);
    ASSERT_TRUE(halfway.send_in_pieces(started));
    for (Conn* c : {&silent, &halfway}) EXPECT_TRUE(c->wait_closed(10s));
    EXPECT_GE(std::chrono::steady_clock::now() - connected, 300ms) << "not before the timeout";
    EXPECT_TRUE(logged("no handshake within 300 ms")) << log_text();
    EXPECT_FALSE(good.wait_closed(50ms)) << "the good client is still connected";
    good.close();
    // The good client's and the cut-short client's ends (the silent one never had a stream).
    ASSERT_TRUE(poll_until([&] { return disconnects() == 2; })) << log_text();
    stop();
    const auto carried = by_tid(events_);
    // The silent client sent nothing; the other's valid prefix is carried as it arrived, as for
    // any stream cut short.
    ASSERT_EQ(carried.size(), 2U);
    ASSERT_TRUE(carried.count(1));
    EXPECT_TRUE(carried.at(1).bytes == good_bytes);
    for (const auto& [tid, stream] : carried) {
        if (tid == 1) continue;
        EXPECT_TRUE(stream.bytes == started);
        EXPECT_TRUE(stream.disconnected);
    }
    const auto stats = source_->stats();
    EXPECT_EQ(stats.counts[AnnotateStat::DroppedNoHandshake], 2U);
    EXPECT_EQ(stats.counts[AnnotateStat::DroppedProtocol], 0U);
}

// Small writes of two connections that alternate between two polls stay apart (the hand-over
// joins a connection's consecutive chunks, never two connections').
TEST_F(SourceTest, InterleavedSmallWritesStayWithTheirConnection) {
    make();
    start();
    Conn a(connect_abstract(config_.socket_name)), b(connect_abstract(config_.socket_name));
    Bytes sent_a = handshake(11, 1), sent_b = handshake(12, 1);
    ASSERT_TRUE(a.send_in_pieces(sent_a) && b.send_in_pieces(sent_b));
    for (int i = 0; i < 40; ++i) {
        const Bytes ma = marker_msg(i, "a" + std::to_string(i)), mb = marker_msg(i, "b");
        ASSERT_TRUE(a.send_in_pieces(ma));
        std::this_thread::sleep_for(1ms);
        ASSERT_TRUE(b.send_in_pieces(mb));
        std::this_thread::sleep_for(1ms);
        sent_a.insert(sent_a.end(), ma.begin(), ma.end());
        sent_b.insert(sent_b.end(), mb.begin(), mb.end());
    }
    a.close();
    b.close();
    std::this_thread::sleep_for(100ms);  // no poll meanwhile: the events queue up alternating
    ASSERT_TRUE(poll_until([&] { return disconnects() == 2; }));
    stop();
    const auto carried = by_tid(events_);
    ASSERT_TRUE(carried.count(11) && carried.count(12));
    EXPECT_TRUE(carried.at(11).bytes == sent_a);
    EXPECT_TRUE(carried.at(12).bytes == sent_b);
    std::size_t data_events = 0;
    for (const auto& e : events_) data_events += std::holds_alternative<model::ExternalData>(e);
    EXPECT_GT(data_events, 20U) << "the writes did interleave";
}

TEST_F(SourceTest, AnIdIsReusedOnlyAfterItsDisconnect) {
    make();
    start();
    for (std::uint32_t tid = 1; tid <= 3; ++tid) {
        Conn c(connect_abstract(config_.socket_name));
        ASSERT_TRUE(c.send_in_pieces(handshake(tid, tid)));
        c.close();
        ASSERT_TRUE(poll_until([&] { return disconnects() == tid; }));
    }
    stop();
    std::vector<std::string> order;
    for (const auto& e : events_) {
        if (const auto* d = std::get_if<model::ExternalData>(&e))
            order.push_back("d" + std::to_string(d->id));
        if (const auto* x = std::get_if<model::ExternalDisconnect>(&e))
            order.push_back("x" + std::to_string(x->id));
    }
    EXPECT_EQ(order, (std::vector<std::string>{"d0", "x0", "d0", "x0", "d0", "x0"}));
}

// A client that never stops sending: its reads pause at its share of the hand-over (bounded
// memory) and, still over its share at `flood_takes` polls in a row, it is dropped.
TEST(CaptureBudget, FollowsTheRatesAndTheLiveRate) {
    collectors::annotate::AnnotateConfig c;
    const auto at100 = collectors::annotate::budget_for(c, 100'000'000);
    EXPECT_EQ(at100.share, c.connection_rate / 10);
    EXPECT_EQ(at100.total, c.total_rate / 10);
    // 5 s of patience, more than the 4 s a 16 MiB visual takes at 4 MiB/s.
    EXPECT_EQ(at100.flood_takes, 51);
    const auto at1s = collectors::annotate::budget_for(c, 1'000'000'000);
    EXPECT_EQ(at1s.share, c.connection_rate);
    EXPECT_EQ(at1s.flood_takes, 6);
    c.stream.max_visual_bytes = 64u << 20;  // a 16 s visual: patience grows with it
    EXPECT_EQ(collectors::annotate::budget_for(c, 1'000'000'000).flood_takes, 17);
    EXPECT_EQ(collectors::annotate::budget_for(c, 1'000'000).share, 64U * 1024) << "a floor";
}

TEST_F(SourceTest, AFloodIsBoundedThenDropped) {
    config_.flood_ns = 50'000'000;
    config_.stream.max_visual_bytes = 256 * 1024;
    const auto budget = collectors::annotate::budget_for(config_, 10'000'000);  // live rate 10 ms
    ASSERT_EQ(budget.share, 64U * 1024);
    ASSERT_EQ(budget.flood_takes, 6);
    make();
    start();
    std::atomic<std::uint64_t> sent{0};
    std::atomic<bool> gone{false};
    std::thread flooder([&] {
        Conn c(connect_abstract(config_.socket_name));
        if (!c.send_in_pieces(handshake(66, 66))) return;
        const Bytes m = string_msg(1, 0, std::string(1000, 'f'));
        while (c.send_in_pieces(m)) sent += m.size();
        gone = true;
    });
    Conn polite(connect_abstract(config_.socket_name));
    ASSERT_TRUE(polite.send_in_pieces(handshake(67, 67)));
    std::size_t max_per_poll = 0;
    for (int i = 0; i < 200 && source_->stats().counts[AnnotateStat::DroppedFlood] == 0; ++i) {
        // Let the flooder fill what it can (its writes stop when the daemon stops reading).
        std::uint64_t last = sent.load();
        for (int quiet = 0; quiet < 10 && !gone;) {
            std::this_thread::sleep_for(5ms);
            const std::uint64_t now = sent.load();
            quiet = now == last ? quiet + 1 : 0;
            last = now;
        }
        const std::size_t before = events_.size();
        poll();
        std::size_t bytes = 0;
        for (std::size_t k = before; k < events_.size(); ++k)
            if (const auto* d = std::get_if<model::ExternalData>(&events_[k]))
                bytes += d->bytes.size();
        max_per_poll = std::max(max_per_poll, bytes);
        ASSERT_TRUE(polite.send_in_pieces(string_msg(i, 0, "still here")));
    }
    flooder.join();
    EXPECT_TRUE(gone.load());
    EXPECT_EQ(source_->stats().counts[AnnotateStat::DroppedFlood], 1U);
    EXPECT_TRUE(logged("it never stops")) << log_text();
    // One share per poll for the flooder, plus the polite client's lines and a held record.
    EXPECT_LE(max_per_poll, budget.share + std::size_t{40} * 1024);
    EXPECT_GT(sent.load(), 5 * budget.share);
    polite.close();
    ASSERT_TRUE(poll_until([&] { return disconnects() == 2; }));
    stop();
    EXPECT_EQ(source_->stats().counts[AnnotateStat::DroppedProtocol], 0U);
}

TEST_F(SourceTest, PollsThatTakeNothingLeaveTheIoThreadAsleep) {
    make();
    start();
    Conn data(connect_abstract(config_.socket_name));
    ASSERT_TRUE(data.send_in_pieces(handshake(68, 68)));
    ASSERT_TRUE(data.send_in_pieces(string_msg(1, 0, "one")));
    ASSERT_TRUE(poll_until([&] { return !events_.empty(); }));
    const auto woken = [&] { return source_->stats().counts[AnnotateStat::LoopWakes]; };
    ASSERT_TRUE(poll_until([&] { return woken() >= 1; })) << "a take that moved events wakes it";
    for (int quiet = 0; quiet < 10;) {  // until what was sent has all come
        std::this_thread::sleep_for(5ms);
        quiet = poll() == 0 ? quiet + 1 : 0;
    }
    std::this_thread::sleep_for(50ms);
    const std::uint64_t before = woken();
    for (int i = 0; i < 50; ++i) {
        std::this_thread::sleep_for(2ms);
        EXPECT_EQ(poll(), 0U);
    }
    // A wake is handled at once; give a stray one the time to be counted.
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(woken(), before) << "50 empty polls";
    ASSERT_TRUE(data.send_in_pieces(string_msg(2, 0, "two")));
    ASSERT_TRUE(poll_until([&] { return woken() > before; }));
    stop();
}

TEST_F(SourceTest, TextLinesFromTheFifoAndTheSocket) {
    make();
    ASSERT_TRUE(std::filesystem::exists(config_.text_fifo)) << log_text();
    const auto write_fifo = [&](const std::string& s) {
        const int fd = ::open(config_.text_fifo.c_str(), O_WRONLY | O_CLOEXEC);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(::write(fd, s.data(), s.size()), static_cast<ssize_t>(s.size()));
        ::close(fd);
    };
    write_fifo("before the capture\n");
    ASSERT_TRUE(
        poll_until([&] { return source_->stats().counts[AnnotateStat::TextDiscarded] == 1; }));
    start();
    write_fifo("phase 2\n");
    write_fifo(std::string("\x1b\xff\x00\x00", 4) + "red\n\x1c binary\nno newline");
    Conn sock(connect_path(config_.text_socket.string()));
    ASSERT_TRUE(sock.ok());
    ASSERT_TRUE(sock.send_in_pieces(Bytes{'s', 'o', 'c', 'k', '\n', 'l', 'a', 's', 't'}, {1}));
    sock.close();
    ASSERT_TRUE(poll_until([&] { return source_->stats().counts[AnnotateStat::TextLines] == 5; }))
        << log_text();
    stop();
    std::vector<std::pair<std::int32_t, std::string>> lines;
    for (const auto& e : events_) {
        const auto* a = std::get_if<model::Annotation>(&e);
        if (a == nullptr) continue;
        const auto& t = std::get<model::TextAnnotation>(a->body);
        lines.emplace_back(a->tid, t.text);
        if (t.text == "red") {
            EXPECT_EQ(t.color, (model::Rgb{0xff, 0, 0}));
        }
    }
    const auto me = static_cast<std::int32_t>(::getpid());
    std::sort(lines.begin(), lines.end());
    EXPECT_EQ(lines,
              (std::vector<std::pair<std::int32_t, std::string>>{
                  {77, "no newline"}, {77, "phase 2"}, {77, "red"}, {me, "last"}, {me, "sock"}}));
    EXPECT_EQ(source_->stats().counts[AnnotateStat::TextBad], 1U);
    EXPECT_TRUE(logged("starts with 0x1C"));
}

// `for i in ...; do echo $i > fifo; done`: each writer opens, writes and closes, and the next
// may open the FIFO while the source still reacts to the last one's close (its descriptor keeps
// the FIFO open for a moment). No line may be lost then, and no write may fail with EPIPE.
TEST_F(SourceTest, FifoWritersOneAfterAnotherLoseNoLine) {
    make();
    start();
    constexpr int kLines = 5000;
    const auto previous = std::signal(SIGPIPE, SIG_IGN);  // EPIPE as an error, not death
    int failed = 0;
    for (int i = 0; i < kLines; ++i) {
        const std::string line = "line " + std::to_string(i) + "\n";
        const int fd = ::open(config_.text_fifo.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0 || ::write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
            ++failed;
        if (fd >= 0) ::close(fd);
    }
    std::signal(SIGPIPE, previous);
    EXPECT_EQ(failed, 0) << "writes that failed";
    EXPECT_TRUE(
        poll_until([&] { return source_->stats().counts[AnnotateStat::TextLines] == kLines; }, 5s))
        << source_->stats().counts[AnnotateStat::TextLines] << " of " << kLines << " lines arrived";
    stop();
    std::set<std::string> texts;
    for (const auto& e : events_)
        if (const auto* a = std::get_if<model::Annotation>(&e))
            texts.insert(std::get<model::TextAnnotation>(a->body).text);
    EXPECT_EQ(texts.size(), static_cast<std::size_t>(kLines));
}

TEST_F(SourceTest, ASecondDaemonOnTheSameNamesWarnsAndTheFirstKeepsWorking) {
    make();
    collectors::annotate::AnnotateConfig same = config_;
    std::vector<std::string> lines;
    std::mutex mu;
    {
        collectors::annotate::AnnotateSource second(same, [&](auto, const std::string& l) {
            std::lock_guard lock(mu);
            lines.push_back(l);
        });
        std::lock_guard lock(mu);
        std::string all;
        for (const auto& l : lines) all += l + "\n";
        EXPECT_NE(all.find("another gatord or apcgate"), std::string::npos) << all;
        EXPECT_NE(all.find("is read by another process"), std::string::npos) << all;
        EXPECT_NE(all.find("is in use by another process"), std::string::npos) << all;
    }
    EXPECT_TRUE(std::filesystem::exists(config_.text_fifo)) << "the first daemon's FIFO stays";
    Conn parent(connect_abstract(config_.parent_socket_name()));
    ASSERT_TRUE(parent.ok());
    start();
    EXPECT_EQ(parent.read_byte(5s), std::optional<std::uint8_t>(0));
    stop();
}

}  // namespace
}  // namespace apcgate::annotate_test
