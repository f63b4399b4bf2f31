// Bytes a real kernel wrote into a perf ring (tests/perf/data/ring_echo.*, recorded with
// perf_ring_record on CPU 0 while `/bin/echo apcgate` ran pinned there): every record must
// tokenize and parse, and the exec, the image mapping, the exit and the switches of that echo
// must all be found, through the same normalizer and mapper a capture uses.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "collectors/perf/event_mapper.hpp"
#include "collectors/perf/record_normalizer.hpp"
#include "collectors/perf/record_parser.hpp"
#include "collectors/perf/record_tokenizer.hpp"
#include "collectors/perf/ring_buffer.hpp"
#include "collectors/perf/tracepoint_payloads.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::collectors::perf {
namespace {

namespace fs = std::filesystem;

const fs::path kData = fs::path(apcgate::test_paths::source_dir()) / "tests/perf/data";

std::vector<std::uint8_t> read_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string read_text(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

class RecordedRing : public ::testing::Test {
  protected:
    void SetUp() override {
        bytes = read_bytes(kData / "ring_echo.bin");
        ASSERT_GT(bytes.size(), 1000U);
        std::istringstream ids(read_text(kData / "ring_echo.ids"));
        std::uint64_t id = 0, st = 0;
        while (ids >> id >> st) {
            ASSERT_TRUE(layouts.add(id, st));
            roles[id] = (st & kSampleRaw) != 0 ? EventRole::SchedSwitch : EventRole::Sideband;
        }
        ASSERT_EQ(layouts.size(), 2U);
        auto f = parse_tracepoint_format(read_text(kData / "sched_switch.format"), "format");
        ASSERT_TRUE(f);
        config.sched_switch = *SchedSwitchLayout::from(*f);
    }
    std::vector<std::uint8_t> bytes;
    LayoutTable layouts;
    std::map<std::uint64_t, EventRole> roles;
    NormalizerConfig config;
};

TEST_F(RecordedRing, EveryRecordParses) {
    RecordParser parser(layouts);
    RecordTokenizer tok(bytes, 0);
    std::map<std::string, int> kinds;
    while (auto raw = tok.next()) {
        auto r = parser.parse(*raw, "ring_echo.bin");
        ASSERT_TRUE(r) << r.error().to_string();
        ++kinds[record_kind_name(raw->type)];
    }
    EXPECT_FALSE(tok.error());
    EXPECT_EQ(tok.consumed(), bytes.size());
    EXPECT_GT(kinds["SAMPLE"], 0);
    EXPECT_GT(kinds["COMM"], 0);
    EXPECT_GT(kinds["MMAP2"], 0);
    EXPECT_GT(kinds["EXIT"], 0);
}

TEST_F(RecordedRing, TheEchoIsNamedMappedSwitchedAndExits) {
    ingest::IngestReport report("perf", "ring_echo.bin");
    RecordNormalizer norm(config, report);
    for (const auto& [id, role] : roles) norm.set_role(id, role);
    RecordParser parser(layouts);
    RecordTokenizer tok(bytes, 0);
    std::vector<TraceEvent> events;
    while (auto raw = tok.next()) {
        auto r = parser.parse(*raw, "ring_echo.bin");
        ASSERT_TRUE(r);
        norm.add(*r, raw->offset + kHeaderBytes, "ring_echo.bin", events);
    }
    EXPECT_EQ(report.problem_count(), 0U);
    std::stable_sort(events.begin(), events.end(), [](const TraceEvent& a, const TraceEvent& b) {
        return time_of(a) < time_of(b);
    });
    // The echo's pid is the one whose COMM record says exec "echo".
    std::int32_t echo = -1;
    for (const auto& e : events)
        if (const auto* c = std::get_if<CommEv>(&e); c != nullptr && c->exec && c->comm == "echo")
            echo = c->pid;
    ASSERT_GT(echo, 0);

    EventMapper mapper(nullptr, model::CounterKey{3});
    std::vector<model::Event> out;
    for (const auto& e : events) mapper.map(e, static_cast<model::Nanos>(time_of(e)), out);
    bool image = false, exited = false, ran = false, named = false;
    for (const auto& e : out) {
        if (const auto* p = std::get_if<model::ProcComm>(&e))
            image = image || (p->pid == echo && p->image.ends_with("/echo"));
        if (const auto* x = std::get_if<model::TaskExit>(&e)) exited = exited || x->tid == echo;
        if (const auto* s = std::get_if<model::ActivitySwitch>(&e)) ran = ran || s->tid == echo;
        if (const auto* n = std::get_if<model::ThreadName>(&e))
            named = named || (n->tid == echo && n->name == "echo");
    }
    EXPECT_TRUE(image) << "the first mapping after exec names the image";
    EXPECT_TRUE(named);
    EXPECT_TRUE(ran) << "sched_switch shows the echo running on CPU 0";
    EXPECT_TRUE(exited);
}

// The same bytes as the kernel laid them out in a ring that wrapped: split at every offset
// into a tail piece at the end of a ring area and a head piece at its start, copying must give
// back the original stream, so records that straddle the end decode whole.
TEST_F(RecordedRing, CopiedOutOfAWrappedRingTheBytesAreUnchanged) {
    std::size_t size = 1;
    while (size < bytes.size()) size <<= 1;
    std::vector<std::uint8_t> ring(size);
    for (std::size_t start : {size - 8, size - 100, size / 2 + 3}) {
        const std::uint64_t tail = 5 * size + start;
        for (std::size_t i = 0; i < bytes.size(); ++i) ring[(tail + i) % size] = bytes[i];
        std::vector<std::uint8_t> linear;
        ASSERT_TRUE(copy_ring(ring, tail, tail + bytes.size(), linear));
        EXPECT_EQ(linear, bytes) << "start " << start;
    }
}

}  // namespace
}  // namespace apcgate::collectors::perf
