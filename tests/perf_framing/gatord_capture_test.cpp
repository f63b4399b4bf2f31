// Reads gatord 9.7.2's own Perf-type capture byte for byte and compares what it holds with the
// counts its README gives; then breaks copies of it and checks inspect's rules catch each break
// at the right offset.
#include "tests/perf_framing/gatord_capture.hpp"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "daemon/capture/perf_capture_summary.hpp"
#include "daemon/cli/cli.hpp"
#include "daemon/service/exit_codes.hpp"
#include "protocol/apc/capture_stream.hpp"

namespace apcgate {
namespace {

using daemon::summarize_perf_capture;
using perf_framing::PerfCaptureChecker;

TEST(GatordCapture, CountsMatchItsReadme) {
    const auto& dir = test::gatord_capture_dir();
    ASSERT_FALSE(dir.empty()) << "could not unpack the capture with xz";
    auto s = summarize_perf_capture(dir);
    ASSERT_TRUE(s) << s.error().to_string();
    for (const auto& v : s->violations) ADD_FAILURE() << v.offset << ": " << v.text;
    EXPECT_TRUE(s->valid());
    EXPECT_EQ(s->data_bytes, 8888910u);
    EXPECT_EQ(s->captured.type, "Perf");
    EXPECT_EQ(s->captured.info.protocol, 950);
    const auto& t = s->tally;
    EXPECT_EQ(t.frames, 215u);
    EXPECT_EQ(t.frames_by_type, (std::map<std::string, std::uint64_t>{{"Summary", 1},
                                                                      {"PerfAttrs", 183},
                                                                      {"PerfData", 8},
                                                                      {"BlockCounter", 22},
                                                                      {"External", 1}}));
    EXPECT_EQ(t.attrs_messages, (std::map<std::string, std::uint64_t>{{"PEA", 10},
                                                                      {"KEYS", 3},
                                                                      {"FORMAT", 3},
                                                                      {"MAPS", 72},
                                                                      {"COMM", 193},
                                                                      {"ONLINE_CPU", 2},
                                                                      {"KALLSYMS", 1},
                                                                      {"KERNEL_BUILD_ID", 1},
                                                                      {"empty frame", 2}}));
    EXPECT_EQ(t.records,
              (std::map<std::string, std::uint64_t>{
                  {"SAMPLE", 26112}, {"EXIT", 177}, {"FORK", 166}, {"MMAP2", 74}, {"COMM", 8}}));
    EXPECT_EQ(t.lost_records, 0u);
}

TEST(GatordCapture, SummaryClocksAndEventsAreGatords) {
    auto s = summarize_perf_capture(test::gatord_capture_dir());
    ASSERT_TRUE(s) << s.error().to_string();
    const auto& t = s->tally;
    ASSERT_TRUE(t.summary);
    ASSERT_NE(t.summary->attribute("nosync"), nullptr);
    ASSERT_NE(t.summary->attribute("PAGESIZE"), nullptr);
    EXPECT_EQ(*t.summary->attribute("PAGESIZE"), "4096");
    // Perf records carry absolute CLOCK_MONOTONIC_RAW times, after the capture's start.
    ASSERT_TRUE(t.first_time);
    EXPECT_GT(static_cast<std::int64_t>(*t.first_time), t.summary->monotonic_raw_ns);
    // The internal keys gatord counts down from INT_MAX, and its 7 perf-backed counters.
    std::set<std::int32_t> keys;
    for (const auto& [key, attr] : t.attrs) keys.insert(key);
    EXPECT_EQ(keys, (std::set<std::int32_t>{0x18, 0x1a, 0x1c, 0x2a, 0x2c, 0x2e, 0x40, 0x7ffffffd,
                                            0x7ffffffe, 0x7fffffff}));
    EXPECT_EQ(t.ids.size(), 20u);  // 10 events on each of 2 CPUs
    EXPECT_EQ(t.online_cpus, (std::set<std::int32_t>{0, 1}));
    std::uint64_t samples = 0;
    for (const auto& [key, n] : t.samples_by_key) samples += n;
    EXPECT_EQ(samples, 26112u);
    EXPECT_GT(t.samples_by_key.at(0x7fffffff), 0u);  // sched_switch
    EXPECT_GT(t.samples_by_key.at(0x7ffffffd), 0u);  // CPU-clock sampler
    // The switch counter arrives as a READ-group member of the samples; /proc counters in
    // Block Counter frames, one block per frame.
    ASSERT_TRUE(t.counter_values.count(0x1c));
    EXPECT_GT(t.counter_values.at(0x1c).values, 0u);
    ASSERT_TRUE(t.counter_values.count(0x70));
    EXPECT_EQ(t.counter_values.at(0x70).values, 22u);
    EXPECT_EQ(t.tracepoint_formats,
              (std::vector<std::string>{"sched_switch", "cpu_frequency", "cpu_idle"}));
    EXPECT_GT(t.threads.size(), 90u);
}

TEST(GatordCapture, InspectAcceptsIt) {
    std::ostringstream out, err;
    const int rc = daemon::run_inspect({test::gatord_capture_dir(), false, false}, out, err);
    EXPECT_EQ(rc, daemon::kExitOk) << out.str() << err.str();
    EXPECT_NE(out.str().find("valid Perf capture, protocol 950"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("SAMPLE=26112"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("0 LOST records"), std::string::npos) << out.str();
}

// ---- gatord's capture, broken on purpose ----------------------------------------------------

struct Checked {
    std::vector<perf_framing::PerfViolation> violations;
    apc::StreamEnd end = apc::StreamEnd::Clean;
};

Checked check(std::span<const std::uint8_t> bytes) {
    std::set<std::int32_t> keys;
    auto s = summarize_perf_capture(test::gatord_capture_dir());
    for (const auto& c : s->captured.counters) keys.insert(c.key);
    PerfCaptureChecker checker(keys);
    apc::CaptureSplitter splitter(bytes);
    while (auto raw = splitter.next()) checker.frame(raw->body, raw->body_offset);
    return {checker.finish(), splitter.end()};
}

// Frame offsets of the local capture file ([u32le length][body] records).
std::vector<std::pair<std::size_t, std::size_t>> frames_of(const std::vector<std::uint8_t>& b) {
    std::vector<std::pair<std::size_t, std::size_t>> out;  // (prefix offset, body length)
    std::size_t pos = 0;
    while (pos + 4 <= b.size()) {
        const std::size_t len = b[pos] | (b[pos + 1] << 8) | (b[pos + 2] << 16) |
                                (static_cast<std::size_t>(b[pos + 3]) << 24);
        out.emplace_back(pos, len);
        pos += 4 + len;
    }
    return out;
}

std::vector<std::uint8_t> without_frames(
    const std::vector<std::uint8_t>& b,
    const std::function<bool(std::span<const std::uint8_t>)>& drop) {
    std::vector<std::uint8_t> out;
    for (const auto& [at, len] : frames_of(b)) {
        const auto body = std::span<const std::uint8_t>(b).subspan(at + 4, len);
        if (drop(body)) continue;
        out.insert(out.end(), b.begin() + static_cast<std::ptrdiff_t>(at),
                   b.begin() + static_cast<std::ptrdiff_t>(at + 4 + len));
    }
    return out;
}

TEST(GatordCaptureBroken, WithoutItsKeysEveryRecordIsUnattributed) {
    const auto bytes = test::read_bytes(test::gatord_capture_dir() / "0000000000");
    // KEYS frames: type 11, legacy core 0, code 2.
    const auto broken = without_frames(bytes, [](std::span<const std::uint8_t> body) {
        return body.size() >= 3 && body[0] == 11 && body[1] == 0 && body[2] == 2;
    });
    ASSERT_LT(broken.size(), bytes.size());
    const auto r = check(broken);
    ASSERT_FALSE(r.violations.empty());
    // The first: the first record of the first PERF_DATA frame (its header word, after
    // type, cpu and the 4-byte length).
    std::size_t first_data = 0;
    for (const auto& [at, len] : frames_of(broken))
        if (broken[at + 4] == 12) {
            first_data = at;
            break;
        }
    const std::size_t cpu_bytes = 1;  // cpu 0 or 1 packs to one byte
    EXPECT_EQ(r.violations.front().offset, first_data + 4 + 1 + cpu_bytes + 4);
    EXPECT_NE(r.violations.front().text.find("has no KEYS entry"), std::string::npos)
        << r.violations.front().text;
}

TEST(GatordCaptureBroken, SummaryDroppedIsReported) {
    const auto bytes = test::read_bytes(test::gatord_capture_dir() / "0000000000");
    const auto broken = without_frames(
        bytes, [](std::span<const std::uint8_t> body) { return !body.empty() && body[0] == 1; });
    const auto r = check(broken);
    ASSERT_FALSE(r.violations.empty());
    EXPECT_NE(r.violations.front().text.find("before the Summary"), std::string::npos)
        << r.violations.front().text;
    EXPECT_NE(r.violations.back().text.find("no Summary"), std::string::npos);
}

TEST(GatordCaptureBroken, APerfDataFrameCutShortBreaksItsLength) {
    auto bytes = test::read_bytes(test::gatord_capture_dir() / "0000000000");
    // Shorten the first PERF_DATA frame by 3 bytes: its length prefix and its body.
    for (const auto& [at, len] : frames_of(bytes)) {
        if (bytes[at + 4] != 12) continue;
        const std::size_t cut = len - 3;
        bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(at + 4 + cut),
                    bytes.begin() + static_cast<std::ptrdiff_t>(at + 4 + len));
        for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<std::uint8_t>(cut >> (8 * i));
        const auto r = check(bytes);
        ASSERT_FALSE(r.violations.empty());
        // The u32 length, after type and cpu.
        EXPECT_EQ(r.violations.front().offset, at + 4 + 2);
        EXPECT_NE(r.violations.front().text.find("length"), std::string::npos)
            << r.violations.front().text;
        return;
    }
    FAIL() << "no PERF_DATA frame";
}

TEST(GatordCaptureBroken, ACutFileEndsTruncatedAndKeepsWhatCameBefore) {
    auto bytes = test::read_bytes(test::gatord_capture_dir() / "0000000000");
    bytes.resize(bytes.size() - 100);
    const auto r = check(bytes);
    EXPECT_EQ(r.end, apc::StreamEnd::Truncated);
    EXPECT_TRUE(r.violations.empty()) << r.violations.front().text;
}

}  // namespace
}  // namespace apcgate
