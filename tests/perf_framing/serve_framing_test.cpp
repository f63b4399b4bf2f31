// `apcgate serve --framing perf` with the in-repo host client: the handshake says GATOR 950,
// captured.xml type="Perf", and the stream until the end of sequence passes every rule inspect
// checks; trace inputs keep the v6.8 framing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

#include "perf_capture_check.hpp"
#include "serve_fixture.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::e2e {
namespace {

class ServePerfFraming : public ServeTest {
  protected:
    void SetUp() override {}
};

TEST_F(ServePerfFraming, StreamsAValidPerfCaptureAfterGator950) {
    if (::geteuid() != 0) GTEST_SKIP() << "the Perf framing records the whole system: needs root";
    start({"--framing", "perf"});
    auto c = HostClient::connect(port_);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->handshake("VERSION 950\nSTREAMLINE\n"), std::optional<std::string>("GATOR 950\n"));
    ASSERT_TRUE(c->request(kDeliverXml, kSession));
    auto captured_xml = c->request_xml("captured");
    ASSERT_TRUE(captured_xml) << daemon_->log();
    auto captured = xml::parse_captured(captured_xml->body);
    ASSERT_TRUE(captured) << captured_xml->body;
    EXPECT_EQ(captured->type, "Perf");
    EXPECT_EQ(captured->info.protocol, 950);
    ASSERT_TRUE(c->send_command(kApcStart));
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    ASSERT_TRUE(c->send_command(kApcStop));
    const StreamResult all = read_stream(*c, std::chrono::seconds(20));
    EXPECT_TRUE(all.end_of_sequence) << daemon_->log();
    const auto checked = check_perf_capture(all.frames, *captured);
    for (const auto& e : checked.errors) ADD_FAILURE() << e;
    const auto& t = checked.tally;
    ASSERT_FALSE(all.frames.empty());
    // Our Summary is the first frame.
    EXPECT_EQ(static_cast<std::uint8_t>(all.frames.front()[0]), 1);
    EXPECT_EQ(t.frames_by_type.count("Summary") ? t.frames_by_type.at("Summary") : 0u, 1u);
    EXPECT_GT(t.attrs_messages.count("PEA") ? t.attrs_messages.at("PEA") : 0u, 0u);
    EXPECT_GT(t.records.count("SAMPLE") ? t.records.at("SAMPLE") : 0u, 0u);
}

// As in the gator framing (serve_hostile_clients_test.cpp): a client that stops reading during
// a fast capture is dropped at --max-send-backlog with whole frames, then an Error, and the
// daemon's memory comes back.
TEST_F(ServePerfFraming, AClientThatStopsReadingGetsAnErrorAndTheMemoryComesBack) {
    if (::geteuid() != 0) GTEST_SKIP() << "the Perf framing records the whole system: needs root";
    handshake_reply_ = "GATOR 950\n";
    start({"--framing", "perf", "--max-send-backlog", "8"});
    HostClient c = client();
    expect_a_non_reading_client_dropped(c);
}

// Under the default backlog limit a client that stops reading is not dropped: once 8 MiB are
// unsent the records stay in the kernel's rings (what they cannot hold the kernel reports in
// LOST records), so the daemon's memory stays below the limit, and the client gets a valid
// capture when it reads again. The memory measured is the daemon's anonymous memory (its heap,
// where a queue would grow): the rings and the mapped binary are file pages, whose count says
// nothing about the queue.
TEST_F(ServePerfFraming, ASlowClientLeavesTheRecordsInTheKernelsRings) {
    if (::geteuid() != 0) GTEST_SKIP() << "the Perf framing records the whole system: needs root";
    start({"--framing", "perf"});
    const long baseline = daemon_->status_kib("RssAnon");
    const std::string memory_at_start = daemon_->memory_report();
    std::string memory_at_peak;
    const auto sample = [&](long& peak) {
        const long now = daemon_->status_kib("RssAnon");
        if (now > peak) {
            peak = now;
            memory_at_peak = daemon_->memory_report();
        }
    };
    auto c = HostClient::connect(port_);
    ASSERT_TRUE(c);
    ASSERT_EQ(c->handshake("VERSION 950\nSTREAMLINE\n"), std::optional<std::string>("GATOR 950\n"));
    const std::string session =
        "<session version=\"1\" buffer_mode=\"streaming\" sample_rate=\"high\" "
        "call_stack_unwinding=\"yes\" duration=\"0\" live_rate=\"10\"/>";
    auto ack = c->request(kDeliverXml, session);
    ASSERT_TRUE(ack);
    auto captured_xml = c->request_xml("captured");
    ASSERT_TRUE(captured_xml) << daemon_->log();
    auto captured = xml::parse_captured(captured_xml->body);
    ASSERT_TRUE(captured);
    ASSERT_TRUE(c->send_command(kApcStart));
    long peak = baseline;
    for (int i = 0; i < 1200 && occurrences("records stay in the kernel's rings") == 0; ++i) {
        sample(peak);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_EQ(occurrences("records stay in the kernel's rings"), 1U) << daemon_->log();
    // Held back for a while longer: nothing more piles up.
    for (int i = 0; i < 30; ++i) {
        sample(peak);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_EQ(occurrences("client is not reading"), 0U) << daemon_->log();
    RecordProperty("anon_baseline_kib", std::to_string(baseline));
    RecordProperty("anon_peak_kib", std::to_string(peak));
    // Below the 64 MiB the queue may hold: the rings keep the rest.
    EXPECT_LT(peak - baseline, 64L * 1024)
        << "anonymous memory: baseline " << baseline << " KiB, peak " << peak << " KiB\nat start:\n"
        << memory_at_start << "at the peak:\n"
        << memory_at_peak << daemon_->log();
    ASSERT_TRUE(c->send_command(kApcStop));
    const StreamResult all = read_stream(*c, std::chrono::seconds(60));
    EXPECT_TRUE(all.end_of_sequence) << daemon_->log();
    const auto checked = check_perf_capture(all.frames, *captured);
    for (const auto& e : checked.errors) ADD_FAILURE() << e;
}

TEST_F(ServePerfFraming, TraceInputsKeepTheGatorFraming) {
    start({"--framing", "perf", "--source",
           "fxt:" + std::string(apcgate::test_paths::testdata_dir()) + "/fxt/fxtcpp_sched.fxt"});
    auto c = HostClient::connect(port_);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->handshake(), std::optional<std::string>("GATOR 680\n"));
    EXPECT_NE(daemon_->log().find("--framing perf is for live captures"), std::string::npos)
        << daemon_->log();
}

}  // namespace
}  // namespace apcgate::e2e
