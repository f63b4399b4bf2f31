// The CTF ingester's small parts: trace detection and discovery, annotation text, the wait
// state of sched_switch, and babeltrace's error log lines.
#include <gtest/gtest.h>

#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <random>

#include "collectors/ctf/bt_error.hpp"
#include "collectors/ctf/ctf_ingest.hpp"
#include "collectors/ctf/decode_bound.hpp"
#include "collectors/ctf/double_text.hpp"
#include "collectors/ctf/field_text.hpp"
#include "collectors/ctf/kernel_mapper.hpp"
#include "collectors/ctf/metadata_packets.hpp"
#include "collectors/ctf/stream_repair.hpp"
#include "collectors/ctf/trace_discovery.hpp"
#include "ctf_run.hpp"
#include "protocol/wire/byte_text.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::ctf_test {
namespace {

namespace ctf = collectors::ctf;
namespace fs = std::filesystem;

// Normalised: libbabeltrace2 names files by their normalised paths.
const fs::path kCorpus =
    fs::weakly_canonical(fs::path(apcgate::test_paths::testdata_dir()) / "ctf");

std::vector<std::uint8_t> bytes(std::string_view s) {
    return {s.begin(), s.end()};
}

TEST(CtfDetect, MetadataTextAndPacketMagic) {
    EXPECT_TRUE(ctf::looks_like_metadata(bytes("/* CTF 1.8 */\ntypealias")));
    EXPECT_TRUE(ctf::looks_like_metadata(std::vector<std::uint8_t>{0x57, 0x1d, 0xd1, 0x75, 0}));
    EXPECT_TRUE(ctf::looks_like_metadata(std::vector<std::uint8_t>{0x75, 0xd1, 0x1d, 0x57}));
    EXPECT_FALSE(ctf::looks_like_metadata(bytes("/* CT")));
    EXPECT_FALSE(ctf::looks_like_metadata(bytes("trace { major = 1; };")));
    EXPECT_FALSE(ctf::looks_like_metadata(std::vector<std::uint8_t>{0x57, 0x1d, 0xd1}));
}

TEST(CtfDetect, SniffsTraceDirectoriesParentsAndMetadataFiles) {
    const fs::path trace = kCorpus / "succeed/wk-heartbeat-u";
    EXPECT_TRUE(ctf::sniff(trace, {}));
    EXPECT_TRUE(ctf::sniff(kCorpus / "succeed", {}));  // a parent of several traces
    std::ifstream in(trace / "metadata", std::ios::binary);
    std::vector<std::uint8_t> head(64);
    in.read(wire::chars_of(head), 64);
    EXPECT_TRUE(ctf::sniff(trace / "metadata", head));
    EXPECT_FALSE(ctf::sniff(trace / "u_0", head));  // data stream, not metadata
    EXPECT_FALSE(ctf::sniff(fs::path(apcgate::test_paths::testdata_dir()) / "xray", {}));
}

TEST(CtfDetect, FindsEveryTraceBelowAParent) {
    auto domains = ctf::find_traces(kCorpus / "succeed/multi-domains");
    ASSERT_TRUE(domains) << domains.error().to_string();
    ASSERT_EQ(domains->size(), 2U);
    EXPECT_EQ((*domains)[0].filename(), "kernel");
    EXPECT_EQ((*domains)[1].filename(), "ust");
    // A trace directory is not searched further; a README beside a trace is ignored.
    auto nested = ctf::find_traces(kCorpus / "fail/valid-events-then-invalid-events");
    ASSERT_TRUE(nested);
    ASSERT_EQ(nested->size(), 1U);
    EXPECT_EQ(nested->front().filename(), "trace");
    auto none = ctf::find_traces(fs::path(apcgate::test_paths::testdata_dir()) / "fxt");
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().to_string().find("no CTF trace"), std::string::npos);
}

TEST(CtfDetect, TreeWalkIsBounded) {
    const fs::path root = scratch_dir("deep");
    fs::path shallow = root / "a" / "b";
    fs::path deep = root / "z";
    for (int i = 0; i < ctf::kMaxTreeDepth + 2; ++i) deep /= "d" + std::to_string(i);
    for (const auto& dir : {shallow, deep}) {
        fs::create_directories(dir);
        std::ofstream(dir / "metadata") << "/* CTF 1.8 */\n";
    }
    auto found = ctf::find_traces(root);
    ASSERT_TRUE(found);
    ASSERT_EQ(found->size(), 1U);  // the one deeper than kMaxTreeDepth is not reached
    EXPECT_EQ(found->front(), shallow);
    fs::remove_all(root);
}

// One packetised metadata packet (little-endian) holding `text`, with the given sizes in bits
// (0: the right ones).
std::vector<std::uint8_t> metadata_packet(const std::string& text, std::uint32_t content_bits = 0,
                                          std::uint32_t packet_bits = 0) {
    const auto right = static_cast<std::uint32_t>((37 + text.size()) * 8);
    std::vector<std::uint8_t> p;
    auto u32 = [&p](std::uint32_t v) {
        for (int i = 0; i < 4; ++i) p.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    };
    u32(0x75d11d57);
    p.insert(p.end(), 16, 0xab);  // uuid
    u32(0);                       // checksum
    u32(content_bits != 0 ? content_bits : right);
    u32(packet_bits != 0 ? packet_bits : right);
    p.insert(p.end(), {0, 0, 0, 1, 8});
    p.insert(p.end(), text.begin(), text.end());
    return p;
}

TEST(CtfMetadataPackets, ConsistentPacketsAndTextPass) {
    auto two = metadata_packet("/* CTF 1.8 */ trace {");
    const auto second = metadata_packet(" major = 1; };");
    two.insert(two.end(), second.begin(), second.end());
    EXPECT_TRUE(ctf::check_metadata_packets(two));
    EXPECT_TRUE(ctf::check_metadata_packets(bytes("/* CTF 1.8 */ trace { major = 1; };")));
    // The real LTTng traces of the corpus are packetised.
    EXPECT_TRUE(ctf::check_metadata_file(kCorpus / "succeed/wk-heartbeat-u/metadata"));
    EXPECT_TRUE(ctf::check_metadata_file(kCorpus / "succeed/multi-domains/kernel/metadata"));
}

TEST(CtfMetadataPackets, BadSizesAreReportedWithOffsetAndField) {
    // content_size 0 made libbabeltrace2 2.0 loop forever (found by the fuzz target).
    auto zero = ctf::check_metadata_packets(metadata_packet("x", 8, 0));
    ASSERT_FALSE(zero);
    EXPECT_EQ(zero.error().field, "content_size");
    EXPECT_EQ(zero.error().offset, std::optional<std::uint64_t>(20));
    EXPECT_EQ(zero.error().record, "metadata packet header");
    EXPECT_EQ(zero.error().kind, ErrorKind::Malformed);
    auto small = ctf::check_metadata_packets(metadata_packet("text", 0, 37 * 8));
    ASSERT_FALSE(small);
    EXPECT_EQ(small.error().field, "packet_size");
    auto past_end = ctf::check_metadata_packets(metadata_packet("text", 1000 * 8, 1000 * 8));
    ASSERT_FALSE(past_end);
    EXPECT_NE(past_end.error().message.find("past the end"), std::string::npos);
    EXPECT_EQ(past_end.error().kind, ErrorKind::Truncated);
    auto bad_second = metadata_packet("a");
    bad_second.insert(bad_second.end(), 40, 0);  // a second header without the magic
    auto magic = ctf::check_metadata_packets(bad_second);
    ASSERT_FALSE(magic);
    EXPECT_EQ(magic.error().field, "magic");
    EXPECT_EQ(magic.error().offset, std::optional<std::uint64_t>(38));
    EXPECT_EQ(magic.error().kind, ErrorKind::Malformed);
}

TEST(CtfMetadataPackets, ATraceWithABadPacketIsRejectedNotHung) {
    const fs::path dir = scratch_dir("badmeta");
    const auto packet = metadata_packet("/* CTF 1.8 */", 8, 20800);
    std::ofstream(dir / "metadata", std::ios::binary)
        .write(wire::text_of(packet).data(), static_cast<std::streamsize>(packet.size()));
    std::ofstream(dir / "stream") << "data";
    auto source = ctf::open({dir, {}, apcgate::test_paths::apcgate_binary()});
    ASSERT_FALSE(source);
    EXPECT_NE(source.error().to_string().find((dir / "metadata").string()), std::string::npos);
    EXPECT_EQ(source.error().field, "content_size");
    fs::remove_all(dir);
}

void write_bytes(const fs::path& p, const std::vector<std::uint8_t>& b, bool append = false) {
    std::ofstream(p, std::ios::binary | (append ? std::ios::app : std::ios::trunc))
        .write(wire::text_of(b).data(), static_cast<std::streamsize>(b.size()));
}

TEST(CtfStreamRepair, PacketStartsAreTheMagicInEitherByteOrderAndACutOneAtTheEnd) {
    const fs::path dir = scratch_dir("packet-starts");
    std::vector<std::uint8_t> b{0xC1, 0xFC, 0x1F, 0xC1, 1, 2, 3};  // big-endian, at 0: no cut
    b.insert(b.end(), {0xC1, 0x1F, 0xFC, 0xC1, 9});                // little-endian, at 7
    b.insert(b.end(), {0xC1, 0xFC, 0x1F, 0x00});                   // not a magic
    b.insert(b.end(), {0xC1, 0xFC});                               // cut in its magic, at 16
    write_bytes(dir / "stream", b);
    EXPECT_EQ(ctf::packet_start_candidates(dir / "stream"), (std::vector<std::uint64_t>{7, 16}));
    // A magic across the scan's 1 MiB blocks is found too.
    std::vector<std::uint8_t> big((std::size_t{1} << 20) - 2, 0);
    big.insert(big.end(), {0xC1, 0xFC, 0x1F, 0xC1, 0});
    write_bytes(dir / "big", big);
    EXPECT_EQ(ctf::packet_start_candidates(dir / "big"),
              (std::vector<std::uint64_t>{(std::uint64_t{1} << 20) - 2}));
    fs::remove_all(dir);
}

// A stream of `packets` packets of 100 bytes, each starting with the packet magic, cut at `size`.
void write_packets(const fs::path& p, std::size_t packets, std::size_t size) {
    static constexpr std::array<std::uint8_t, 4> kMagic{0xC1, 0xFC, 0x1F, 0xC1};
    std::vector<std::uint8_t> b(packets * 100, 7);
    for (std::size_t i = 0; i < packets; ++i)
        std::copy(kMagic.begin(), kMagic.end(), b.begin() + static_cast<std::ptrdiff_t>(i * 100));
    b.resize(size);
    write_bytes(p, b);
}

TEST(CtfStreamRepair, DamagedStreamsAreCutBackToTheirLastAcceptedPacket) {
    const fs::path dir = scratch_dir("repair");
    const fs::path trace = dir / "trace";
    fs::create_directories(trace / "index");
    write_bytes(trace / "metadata", bytes("/* CTF 1.8 */"));
    write_packets(trace / "cut", 10, 950);       // its 10th packet is cut 50 bytes in
    write_packets(trace / "damaged", 20, 2000);  // its 4th packet is damaged
    write_packets(trace / "whole", 3, 300);
    write_bytes(trace / "index" / "whole.idx", bytes("index"));
    // libbabeltrace2 as the repair sees it: a trial accepts whole packets, and "damaged" only
    // up to its 4th.
    std::size_t trials = 0;
    const ctf::TraceOpens opens = [&](const fs::path& d) {
        ++trials;
        for (const auto& e : fs::directory_iterator(d)) {
            if (!e.is_regular_file() || e.path().filename() == "metadata") continue;
            const auto size = e.file_size();
            if (size % 100 != 0 || (e.path().filename() == "damaged" && size > 300)) return false;
        }
        return true;
    };
    auto view = ctf::repair_trace(trace, dir / "view", opens);
    ASSERT_TRUE(view);
    EXPECT_EQ(view->dir, dir / "view");
    EXPECT_EQ(fs::file_size(view->dir / "cut"), 900U);
    EXPECT_EQ(fs::file_size(view->dir / "damaged"), 300U);
    EXPECT_TRUE(fs::is_symlink(view->dir / "whole"));
    EXPECT_TRUE(fs::is_symlink(view->dir / "index" / "whole.idx"));
    EXPECT_TRUE(fs::is_symlink(view->dir / "metadata"));
    EXPECT_FALSE(fs::exists(dir / "view.trial"));
    ASSERT_EQ(view->losses.size(), 2U);
    EXPECT_EQ(view->losses[0].input, (trace / "cut").string());
    EXPECT_EQ(view->losses[0].offset, std::optional<std::uint64_t>(900));
    EXPECT_NE(view->losses[0].message.find("the 50 bytes from there to the file's end at byte 950"),
              std::string::npos)
        << view->losses[0].message;
    EXPECT_EQ(view->losses[1].input, (trace / "damaged").string());
    EXPECT_EQ(view->losses[1].offset, std::optional<std::uint64_t>(300));
    // The input is untouched.
    EXPECT_EQ(fs::file_size(trace / "cut"), 950U);
    EXPECT_LT(trials, 30U);  // the search halves what the tries from the end did not find

    // Nothing to repair: the trace's problem lies elsewhere.
    const fs::path good = dir / "good";
    fs::create_directories(good);
    write_bytes(good / "metadata", bytes("/* CTF 1.8 */"));
    write_packets(good / "whole", 3, 300);
    EXPECT_FALSE(ctf::repair_trace(good, dir / "view2", opens));
    EXPECT_FALSE(fs::exists(dir / "view2"));
    // Metadata that does not open: no repair either.
    EXPECT_FALSE(ctf::repair_trace(trace, dir / "view3", [](const fs::path&) { return false; }));
    fs::remove_all(dir);
}

TEST(CtfDecodeBound, EightEventsPerStreamByteMeasuredAgainWhenPassed) {
    const fs::path dir = scratch_dir("decode-bound");
    write_bytes(dir / "metadata", bytes("/* CTF 1.8 */"));
    write_bytes(dir / "stream", std::vector<std::uint8_t>(10, 0));
    ctf::DecodeBound bound({dir});
    EXPECT_EQ(bound.stream_bytes(), 10U);
    EXPECT_EQ(bound.max_events(), 80U);
    EXPECT_FALSE(bound.exceeded(80));
    EXPECT_TRUE(bound.exceeded(81));
    const std::string why = bound.error(81).message;
    EXPECT_EQ(bound.error(81).kind, ErrorKind::Limit);
    EXPECT_NE(why.find("81 events from 10 bytes"), std::string::npos) << why;
    EXPECT_NE(why.find("bound of 8 events per byte (80 events"), std::string::npos) << why;
    // A trace still being written has grown meanwhile: its new size counts.
    write_bytes(dir / "stream", std::vector<std::uint8_t>(10, 0), true);
    EXPECT_FALSE(bound.exceeded(81));
    EXPECT_EQ(bound.max_events(), 160U);
    fs::remove_all(dir);
}

TEST(CtfText, Utf8AndEscapes) {
    std::string out;
    ctf::append_utf8(out, "a\"b\\c\n\x01", true);
    EXPECT_EQ(out, "a\\\"b\\\\c\\x0a\\x01");
    out.clear();
    ctf::append_utf8(out, "caf\xc3\xa9 \xff \xe2\x82", false);  // valid é, stray 0xff, cut sequence
    EXPECT_EQ(out, "caf\xc3\xa9 \\xff \\xe2\\x82");
    out.clear();
    ctf::append_utf8(out, "\xc0\xaf \xed\xa0\x80", false);  // overlong '/' and a surrogate
    EXPECT_EQ(out, "\\xc0\\xaf \\xed\\xa0\\x80");
}

TEST(CtfText, LongTextIsCutWithAnEllipsis) {
    std::string out;
    ctf::append_utf8(out, std::string(5000, 'x'), false, 100);
    EXPECT_LE(out.size(), 104U);
    EXPECT_EQ(out.substr(out.size() - 3), "...");
}

// write_double() writes what std::to_chars writes, on the values its exact path takes (multiples
// of 2^-19 below 2^53 with up to 15 significant digits, in fixed or scientific notation) and
// on those it hands to std::to_chars.
TEST(CtfText, DoublesAreWrittenAsToCharsWritesThem) {
    const auto check = [](double v) {
        char expected[ctf::kDoubleTextBytes];
        char got[ctf::kDoubleTextBytes];
        const auto want = std::to_chars(expected, expected + sizeof expected, v);
        ASSERT_EQ(want.ec, std::errc());
        const char* end = ctf::write_double(got, v);
        ASSERT_EQ(std::string_view(got, static_cast<std::size_t>(end - got)),
                  std::string_view(expected, static_cast<std::size_t>(want.ptr - expected)))
            << std::hexfloat << v;
    };
    for (int k = -50000; k <= 50000; ++k) {
        check(k / 4.0);
        check(k / 1024.0);
        check(k * 1000.0);
        check(k * 1e10);
    }
    double p10 = 1;
    for (int e = 0; e <= 22; ++e, p10 *= 10) {
        for (const double v : {p10, p10 + 1, p10 - 1, p10 / 4, 3 * p10, 1 / p10, -p10}) check(v);
    }
    for (int e = -1080; e <= 1030; ++e) check(std::ldexp(1.0, e));
    for (const double v :
         {0.0, -0.0, 123456789012345.0, 1234567890123456.0, 999999999999999.0, 0x1p53 - 1, 0x1p53,
          0x1p-19, 0x1p-20, 3 * 0x1p-19, 0.1, 1.0 / 3, std::numeric_limits<double>::max(),
          std::numeric_limits<double>::min(), std::numeric_limits<double>::denorm_min(),
          std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
          std::numeric_limits<double>::quiet_NaN()})
        check(v);
    std::mt19937_64 random(25);
    for (int i = 0; i < 200000; ++i) {
        const auto m = static_cast<double>(random() >> (11 + random() % 53));  // up to 53 bits
        const int e = static_cast<int>(random() % 80) - 60;
        check(std::ldexp(m, e));
        check(-std::ldexp(m, e));
    }
}

TEST(CtfKernel, WaitStateFromPrevState) {
    using ctf::KernelMapper;
    using model::WaitState;
    EXPECT_EQ(KernelMapper::wait_state(0), WaitState::Contention);      // R: preempted
    EXPECT_EQ(KernelMapper::wait_state(1), WaitState::Other);           // S: sleeping
    EXPECT_EQ(KernelMapper::wait_state(2), WaitState::Io);              // D: uninterruptible
    EXPECT_EQ(KernelMapper::wait_state(0x100), WaitState::Contention);  // TASK_REPORT_MAX flag
    EXPECT_EQ(KernelMapper::wait_state(0x402), WaitState::Io);
}

TEST(CtfErrors, BabeltraceLogLinesArePickedOut) {
    const std::string log =
        "11-21 14:05:21.790 21013 21013 E PLUGIN/CTF/META/PARSER yyerror@parser.y:943 At line 9 "
        "in metadata stream: syntax error\n"
        "11-21 14:05:21.790 21013 21013 W LIB/GRAPH add@graph.c:973 a warning\n"
        "unrelated line from someone else\n"
        "11-21 14:05:21.791 21013 21013 E PLUGIN/CTF/META/DECODER append@decoder.c:288 [probe] "
        "Cannot create the metadata AST\n";
    const auto lines = ctf::bt_log_errors(log, 5);
    ASSERT_EQ(lines.size(), 2U);
    EXPECT_EQ(lines[0], "At line 9 in metadata stream: syntax error");
    EXPECT_EQ(lines[1], "Cannot create the metadata AST");
    EXPECT_EQ(ctf::bt_log_errors(log, 1).size(), 1U);
}

TEST(CtfErrors, OpenFailsClearlyOnAMissingOrEmptyPath) {
    auto missing = ctf::open({"/nonexistent/trace", {}, apcgate::test_paths::apcgate_binary()});
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().to_string().find("/nonexistent/trace"), std::string::npos);
    const fs::path empty = scratch_dir("empty");
    auto none = ctf::open({empty, {}, apcgate::test_paths::apcgate_binary()});
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().to_string().find("no CTF trace"), std::string::npos);
    fs::remove_all(empty);
}

}  // namespace
}  // namespace apcgate::ctf_test
