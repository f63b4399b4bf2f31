// Perf-type captures built frame by frame with the frame writer: each rule of the checker is
// broken once, and the violation must name the offset of the offending bytes.
#include <gtest/gtest.h>
#include <linux/perf_event.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <string>

#include "protocol/apc/capture_stream.hpp"
#include "protocol/perf_framing/capture_check.hpp"
#include "protocol/perf_framing/frame_writer.hpp"
#include "protocol/perf_framing/frames.hpp"

namespace apcgate::perf_framing {
namespace {

constexpr std::int32_t kKey = 0x7ffffffd;
constexpr std::uint64_t kId = 4242;

std::vector<std::uint8_t> attr_bytes(std::uint64_t sample_type, std::uint64_t read_format = 0) {
    perf_event_attr a{};
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_CPU_CLOCK;
    a.sample_type = sample_type;
    a.read_format = read_format;
    a.sample_id_all = 1;
    a.use_clockid = 1;
    a.clockid = CLOCK_MONOTONIC_RAW;
    std::vector<std::uint8_t> out(sizeof a);
    std::memcpy(out.data(), &a, sizeof a);
    return out;
}

// Little-endian words of one record.
struct Words {
    std::vector<std::uint8_t> bytes;
    Words& w(std::uint64_t v) {
        for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
        return *this;
    }
};
std::uint64_t header(std::uint32_t type, std::uint16_t size) {
    return type | (std::uint64_t{size} << 48);
}

constexpr std::uint64_t kSampleType =
    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN;

// A SAMPLE: header, identifier, pid/tid, time, callchain of 2 (one kernel context marker).
Words sample(std::uint64_t id, std::uint16_t size = 56) {
    Words r;
    r.w(header(PERF_RECORD_SAMPLE, size))
        .w(id)
        .w(7 | (std::uint64_t{8} << 32))
        .w(1000)
        .w(2)
        .w(PERF_CONTEXT_KERNEL)
        .w(0xffffffff81000000);
    return r;
}
// A COMM: pid, tid, "worker\0" padded, then the trailer (tid, time, identifier).
Words comm(std::uint64_t id) {
    Words r;
    r.w(header(PERF_RECORD_COMM, 48)).w(7 | (std::uint64_t{8} << 32));
    const char name[8] = {'w', 'o', 'r', 'k', 'e', 'r', 0, 0};
    r.bytes.insert(r.bytes.end(), name, name + 8);
    r.w(7 | (std::uint64_t{8} << 32)).w(1001).w(id);
    return r;
}

// A COMM of `tid` in process 7 renamed to `name` (at most 7 characters) at `time`.
Words comm_at(std::uint64_t id, std::uint32_t tid, const std::string& name, std::uint64_t time) {
    Words r;
    r.w(header(PERF_RECORD_COMM, 48)).w(7 | (std::uint64_t{tid} << 32));
    char text[8] = {};
    name.copy(text, 7);  // at most 7: the eighth stays the terminating zero
    r.bytes.insert(r.bytes.end(), text, text + 8);
    r.w(7 | (std::uint64_t{tid} << 32)).w(time).w(id);
    return r;
}
// A FORK: task `tid` created by `ptid` (both in process 7) at `time`, then the trailer.
Words fork_at(std::uint64_t id, std::uint32_t tid, std::uint32_t ptid, std::uint64_t time) {
    Words r;
    r.w(header(PERF_RECORD_FORK, 56))
        .w(7 | (std::uint64_t{7} << 32))
        .w(tid | (std::uint64_t{ptid} << 32))
        .w(time);
    r.w(7 | (std::uint64_t{tid} << 32)).w(time).w(id);
    return r;
}

class Capture {
  public:
    // Appends a frame with its local-capture length prefix; returns the body's offset.
    std::size_t add(const std::function<void(std::vector<std::uint8_t>&)>& write) {
        std::vector<std::uint8_t> body;
        write(body);
        const std::size_t at = bytes.size();
        for (int i = 0; i < 4; ++i)
            bytes.push_back(static_cast<std::uint8_t>(body.size() >> (8 * i)));
        bytes.insert(bytes.end(), body.begin(), body.end());
        return at + 4;
    }
    std::size_t summary() {
        return add([](auto& b) { write_summary(b, {1, 2, 3, 4, {{"nosync", ""}}}); });
    }
    std::size_t pea(std::uint64_t sample_type = kSampleType) {
        return add([&](auto& b) { AttrsFrameWriter(b).pea(attr_bytes(sample_type), kKey); });
    }
    std::size_t keys() {
        return add([](auto& b) {
            const std::pair<std::uint64_t, std::int32_t> ids[] = {{kId, kKey}};
            AttrsFrameWriter(b).keys(ids);
        });
    }
    // Offset of the first record's header word in the file.
    std::size_t data(const std::vector<std::uint8_t>& records, std::int32_t cpu = 1) {
        const std::size_t body = add([&](auto& b) { write_perf_data(b, cpu, records); });
        return body + 1 + 1 + 4;
    }
    std::vector<PerfViolation> check(const PerfCaptureTally** tally = nullptr) {
        checker_ = std::make_unique<PerfCaptureChecker>(std::set<std::int32_t>{});
        apc::CaptureSplitter split(bytes);
        while (auto raw = split.next()) checker_->frame(raw->body, raw->body_offset);
        EXPECT_EQ(split.end(), apc::StreamEnd::Clean);
        auto v = checker_->finish();
        if (tally) *tally = &checker_->tally();
        return v;
    }
    std::vector<std::uint8_t> bytes;

  private:
    std::unique_ptr<PerfCaptureChecker> checker_;
};

std::vector<std::uint8_t> cat(std::initializer_list<Words> rs) {
    std::vector<std::uint8_t> out;
    for (const auto& r : rs) out.insert(out.end(), r.bytes.begin(), r.bytes.end());
    return out;
}

TEST(SyntheticCapture, AWellFormedCaptureHasNoViolations) {
    Capture c;
    c.pea();
    c.summary();
    c.keys();
    c.data(cat({sample(kId), comm(kId)}));
    const PerfCaptureTally* t = nullptr;
    const auto v = c.check(&t);
    for (const auto& x : v) ADD_FAILURE() << x.offset << ": " << x.text;
    EXPECT_EQ(t->records, (std::map<std::string, std::uint64_t>{{"SAMPLE", 1}, {"COMM", 1}}));
    EXPECT_EQ(t->threads.at(8), "worker");
    EXPECT_EQ(t->samples_by_key.at(kKey), 1u);
}

// Threads that start during a capture have no COMM message: a new thread is named by its
// FORK (its parent's name), an exec or a rename by a COMM record; CPUs' frames come one after
// the other, so the records count in time order, not frame order.
TEST(SyntheticCapture, TasksStartedDuringTheCaptureAreNamedInTimeOrder) {
    Capture c;
    c.pea();
    c.summary();
    c.keys();
    // cpu 1's frame first: thread 9 forked from 8 after 8 exec'd as "app" (cpu 0, earlier);
    // thread 10 forked before 8's exec keeps the old name; 11 renames itself after its fork.
    c.data(cat({fork_at(kId, 9, 8, 300), fork_at(kId, 10, 8, 100), fork_at(kId, 11, 8, 400),
                comm_at(kId, 11, "render", 500)}),
           1);
    c.data(cat({comm_at(kId, 8, "shell", 50), comm_at(kId, 8, "app", 200)}), 0);
    const PerfCaptureTally* t = nullptr;
    const auto v = c.check(&t);
    for (const auto& x : v) ADD_FAILURE() << x.offset << ": " << x.text;
    EXPECT_EQ(t->threads.at(8), "app");
    EXPECT_EQ(t->threads.at(9), "app");
    EXPECT_EQ(t->threads.at(10), "shell");
    EXPECT_EQ(t->threads.at(11), "render");
}

TEST(SyntheticCapture, KernelAddressesRoundTripThroughPackedWords) {
    std::vector<std::uint8_t> body;
    const auto records = cat({sample(kId)});
    write_perf_data(body, 0, records);
    auto f = decode_perf_frame(body, 0);
    ASSERT_TRUE(f) << f.error().to_string();
    const auto& d = std::get<PerfDataFrame>(f->body);
    EXPECT_EQ(d.raw, records);
    // 0xffffffffffffff80 (PERF_CONTEXT_KERNEL) packs to two bytes, as gatord's does.
    const std::uint8_t marker[] = {0x80, 0x7f};
    EXPECT_NE(std::search(body.begin(), body.end(), marker, marker + 2), body.end());
}

TEST(SyntheticCapture, AnIdentifierWithoutKeysIsReportedAtItsRecord) {
    Capture c;
    c.pea();
    c.summary();
    c.keys();
    const std::size_t first = c.data(cat({sample(kId), sample(9999)}));
    const auto v = c.check();
    ASSERT_EQ(v.size(), 1u);
    // The second record starts 7 words after the first; each of them packs to 1..10 bytes.
    EXPECT_GT(v[0].offset, first);
    EXPECT_NE(v[0].text.find("identifier 9999 has no KEYS entry"), std::string::npos) << v[0].text;
}

TEST(SyntheticCapture, ARecordLongerThanItsLayoutIsReported) {
    Capture c;
    c.pea();
    c.summary();
    c.keys();
    Words padded = sample(kId, 64);
    padded.w(0);
    const std::size_t first = c.data(padded.bytes);
    const auto v = c.check();
    ASSERT_EQ(v.size(), 1u);
    EXPECT_GE(v[0].offset, first);
    EXPECT_NE(v[0].text.find("left over"), std::string::npos) << v[0].text;
}

TEST(SyntheticCapture, ARecordShorterThanItsLayoutIsReportedAtTheMissingField) {
    Capture c;
    // The attr adds PERIOD: the sample's 7 words cannot hold it and its callchain.
    c.pea(kSampleType | PERF_SAMPLE_PERIOD);
    c.summary();
    c.keys();
    const std::size_t first = c.data(sample(kId).bytes);
    const auto v = c.check();
    ASSERT_EQ(v.size(), 1u);
    EXPECT_GT(v[0].offset, first);
    EXPECT_NE(v[0].text.find("SAMPLE"), std::string::npos) << v[0].text;
}

TEST(SyntheticCapture, ARecordRunningPastItsFrameIsReported) {
    Capture c;
    c.pea();
    c.summary();
    c.keys();
    Words r = sample(kId, 64);  // says 8 words, has 7
    const std::size_t first = c.data(r.bytes);
    const auto v = c.check();
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].offset, first);
    EXPECT_NE(v[0].text.find("runs past the frame's end"), std::string::npos) << v[0].text;
}

TEST(SyntheticCapture, DataBeforeTheSummaryAndKeysBeforeTheirPeaAreReported) {
    Capture c;
    const std::size_t keys = c.keys();
    c.pea();
    c.data(sample(kId).bytes);
    c.summary();
    const auto v = c.check();
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].offset, keys + 2);  // the KEYS message code, after type and legacy core
    EXPECT_NE(v[0].text.find("which no PEA before it defines"), std::string::npos) << v[0].text;
    EXPECT_NE(v[1].text.find("before the Summary"), std::string::npos) << v[1].text;
}

TEST(SyntheticCapture, AnAttrWithoutIdentifierIsReported) {
    Capture c;
    c.pea(PERF_SAMPLE_TID | PERF_SAMPLE_TIME);
    c.summary();
    const auto v = c.check();
    ASSERT_EQ(v.size(), 1u);
    EXPECT_NE(v[0].text.find("lacks PERF_SAMPLE_IDENTIFIER"), std::string::npos) << v[0].text;
}

TEST(SyntheticCapture, AV68FrameTypeIsNotPartOfThePerfFraming) {
    Capture c;
    c.summary();
    const std::size_t at = c.add([](auto& b) { b = {2, 0, 1, 2, 3}; });  // a Backtrace frame
    const auto v = c.check();
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].offset, at);
    EXPECT_NE(v[0].text.find("not part of the Perf framing"), std::string::npos) << v[0].text;
}

TEST(SyntheticCapture, AnUnterminatedCommIsReported) {
    Capture c;
    c.summary();
    const std::size_t at = c.add([](auto& b) {
        AttrsFrameWriter(b).comm(1, 1, "", "init");
        b.pop_back();  // the NUL after the comm
    });
    const auto v = c.check();
    ASSERT_EQ(v.size(), 1u);
    EXPECT_GT(v[0].offset, at);
    EXPECT_NE(v[0].text.find("NUL"), std::string::npos) << v[0].text;
}

TEST(SyntheticCapture, LostRecordsAreCounted) {
    Capture c;
    c.pea();
    c.summary();
    c.keys();
    Words lost;
    lost.w(header(PERF_RECORD_LOST, 48)).w(kId).w(17).w(7 | (std::uint64_t{8} << 32)).w(5).w(kId);
    c.data(lost.bytes);
    const PerfCaptureTally* t = nullptr;
    const auto v = c.check(&t);
    EXPECT_TRUE(v.empty());
    EXPECT_EQ(t->lost_records, 1u);
    EXPECT_EQ(t->lost_events, 17u);
}

}  // namespace
}  // namespace apcgate::perf_framing
