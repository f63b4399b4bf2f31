// `apcgate serve` with the perf collector, driven like Streamline over TCP: the counters XML
// offers the perf counters that open here, a capture streams Activity, Backtrace and Name frames
// that keep the seed's frame rules, perf counters get values, and after the capture every perf
// descriptor is closed again. Prints the daemon's RSS idle and while capturing.
#include <chrono>
#include <thread>

#include "perf_capture.hpp"
#include "serve_fixture.hpp"

namespace apcgate::e2e {
namespace {

TEST_F(ServeTest, PerfCaptureStreamsActivityCallPathsAndCounters) {
    if (::geteuid() != 0) GTEST_SKIP() << "system-wide perf events need root";
    {
        HostClient c = client();
        auto counters = c.request_xml("counters");
        ASSERT_TRUE(counters);
        for (const char* name : {"Linux_cpu_activity", "PERF_COUNT_SW_CONTEXT_SWITCHES",
                                 "PERF_COUNT_SW_PAGE_FAULTS", "Linux_perf_lost"})
            EXPECT_NE(counters->body.find(name), std::string::npos) << name;
        c.send_command(kDisconnect);
        EXPECT_TRUE(c.wait_closed());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const long rss_idle = daemon_->rss_kib();
    const int fds_idle = daemon_->open_fds();

    HostClient c = client();
    std::string session = kSession;
    session.replace(session.find("sample_rate=\"low\""), 17, "sample_rate=\"normal\"");
    auto ack = c.request(kDeliverXml, session);
    ASSERT_TRUE(ack);
    auto captured_xml = c.request_xml("captured");
    ASSERT_TRUE(captured_xml);
    auto captured = xml::parse_captured(captured_xml->body);
    ASSERT_TRUE(captured);
    ASSERT_TRUE(c.send_command(kApcStart));
    // Reads whole messages for 1.5 s of capture (a deadline inside a message would cut it and
    // lose the stream's framing under load): live data arrives at every live-rate flush.
    StreamResult first;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
    while (std::chrono::steady_clock::now() < until) {
        auto r = c.read(std::chrono::seconds(10));
        ASSERT_TRUE(r) << "the stream stopped during the capture";
        if (r->code == kApcData) first.frames.push_back(std::move(r->body));
    }
    const long rss_capturing = daemon_->rss_kib();
    ASSERT_TRUE(c.send_command(kApcStop));
    StreamResult rest = read_stream(c, std::chrono::seconds(10));
    EXPECT_TRUE(rest.end_of_sequence);
    auto frames = first.frames;
    frames.insert(frames.end(), rest.frames.begin(), rest.frames.end());
    const CheckedCapture checked = check_capture(frames, *captured);
    for (const auto& e : checked.errors) ADD_FAILURE() << e;

    std::map<apc::FrameType, int> types;
    for (const auto& f : checked.frames) ++types[f.type];
    EXPECT_GT(types[apc::FrameType::Activity], 0);
    EXPECT_GT(types[apc::FrameType::Backtrace], 0);
    EXPECT_GT(types[apc::FrameType::Name], 0);
    for (const auto& cc : captured->counters) {
        if (cc.type.rfind("PERF_COUNT_SW_", 0) == 0 || cc.type == "Linux_perf_lost" ||
            cc.type == "Linux_cpu_activity") {
            EXPECT_GT(checked.values_per_key.count(cc.key), 0U) << cc.type;
        }
    }
    EXPECT_TRUE(c.wait_closed());
    for (int i = 0; i < 50 && daemon_->open_fds() != fds_idle; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(daemon_->open_fds(), fds_idle) << "perf fds and rings are released after a capture";
    std::printf("apcgate serve RSS: idle %ld KiB, capturing %ld KiB\n", rss_idle, rss_capturing);
}

}  // namespace
}  // namespace apcgate::e2e
