// `apcgate report` reads a v6.8 capture's frames on a thread of their own when it may use more
// than one CPU (frame_batches.hpp): that reading must give the report, and the error of corrupt
// data, exactly as reading on one thread does, with many batches in flight (a capture of several
// thousand annotations, string spans and other annotations mixed), when the data is cut short,
// and when the analysis stops early at corrupt data (it must not hang waiting for the reader).
// The data file is read in chunks of whole frames: the frames and messages read, and where and
// why the frames stop, must not depend on where the chunks' boundaries fall or on how much each
// read() returns.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "daemon/analysis/capture_analysis.hpp"
#include "daemon/analysis/frame_batches.hpp"
#include "daemon/analysis/report_output.hpp"
#include "daemon_process.hpp"
#include "synthetic_capture.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::analysis_test {
namespace {

using e2e::run_apcgate;
using e2e::temp_dir;
namespace fs = std::filesystem;

std::string report_of(const fs::path& dir, bool threaded) {
    daemon::analysis::AnalysisOptions options;
    options.reading_thread = threaded;
    auto analysed = daemon::analysis::analyse_capture(dir, options);
    if (!analysed) return "failed: " + analysed.error().to_string();
    std::string text = daemon::analysis::report_json(analysed->report, 0)
                           .dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (analysed->data_error) text += "\ndata error: " + analysed->data_error->to_string();
    return text;
}

// Spans on several channels (string annotations, read in place), with markers and coloured
// spans between them (read through the rebuilder), enough for many batches.
fs::path mixed_capture(const fs::path& dir) {
    const fs::path like = dir / "like.apc";
    const fs::path xray = fs::path(apcgate::test_paths::testdata_dir()) / "xray";
    auto [rc, log] = run_apcgate({"convert", (xray / "fdr-log-version-3.xray").string(), "--binary",
                                  (xray / "elf64-sample-o2.bin").string(), "-o", like.string()});
    EXPECT_EQ(rc, 0) << log;
    std::vector<model::Event> events;
    for (int channel = 1; channel <= 4; ++channel)
        add_spans(events, "f" + std::to_string(channel) + "(int)", channel, channel,
                  std::int64_t{100} * channel, 6000);
    for (int i = 0; i < 300; ++i) {
        const std::int64_t ts = 1000 + 997LL * i;
        events.emplace_back(model::Annotation{
            ts, 0, 1, model::MarkerAnnotation{std::nullopt, "mark " + std::to_string(i % 7)}});
        events.emplace_back(model::Annotation{
            ts, 0, 2, model::StringAnnotation{9, model::Rgb{1, 2, 3}, "coloured"}});
        events.emplace_back(
            model::Annotation{ts + 50, 0, 2, model::StringAnnotation{9, std::nullopt, {}}});
    }
    write_capture(like, dir / "mixed.apc", events);
    return dir / "mixed.apc";
}

std::string read_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(ReportReading, ThreadedReadingGivesTheSameReportAsInline) {
    const fs::path capture = mixed_capture(temp_dir("reading"));
    const std::string inline_report = report_of(capture, false);
    ASSERT_EQ(inline_report.find("data error"), std::string::npos) << inline_report;
    ASSERT_NE(inline_report.find("\"f4(int)\""), std::string::npos) << inline_report;
    ASSERT_NE(inline_report.find("mark 6"), std::string::npos) << inline_report;
    ASSERT_NE(inline_report.find("coloured"), std::string::npos) << inline_report;
    EXPECT_EQ(report_of(capture, true), inline_report);
}

TEST(ReportReading, ThreadedReadingOfCutAndCorruptDataMatchesInline) {
    const fs::path capture = mixed_capture(temp_dir("reading-bad"));
    const fs::path data = capture / "0000000000";
    const std::string original = read_bytes(data);
    ASSERT_GT(original.size(), 100000u);
    int errors = 0;
    for (std::size_t i = 1; i <= 24; ++i) {
        const std::size_t at = original.size() * i / 25;
        std::string bytes = original;
        if (i % 2 == 0) {
            bytes.resize(at);  // cut short
        } else {
            bytes[at] = static_cast<char>(bytes[at] ^ 0xa5);
            bytes[at + 1] = static_cast<char>(bytes[at + 1] ^ 0xff);
        }
        std::ofstream(data, std::ios::binary | std::ios::trunc) << bytes;
        const std::string inline_report = report_of(capture, false);
        errors += inline_report.find("data error") != std::string::npos ? 1 : 0;
        EXPECT_EQ(report_of(capture, true), inline_report) << "change at byte " << at;
    }
    // Some of the flipped bytes make the data corrupt, so the analysis stops early.
    EXPECT_GT(errors, 0);
}

// Every item read_frame_batches hands over, and how the frames ended, as text: `bytes` read
// `piece` bytes per read() at most, in chunks of `chunk` bytes.
std::string items_of(const std::string& bytes, std::size_t chunk, std::size_t piece,
                     bool threaded) {
    std::size_t pos = 0;
    const daemon::analysis::ReadBytes read =
        [&](std::span<std::uint8_t> into) -> Result<std::size_t> {
        const std::size_t n = std::min({into.size(), piece, bytes.size() - pos});
        std::memcpy(into.data(), bytes.data() + pos, n);
        pos += n;
        return n;
    };
    std::string out;
    const auto end = daemon::analysis::read_frame_batches(
        read, threaded,
        [&](const daemon::analysis::FrameBatch& batch) {
            for (const auto& it : batch.used()) {
                out += std::to_string(static_cast<int>(it.kind)) + " " + std::to_string(it.offset) +
                       " " + std::to_string(it.core) + " " + std::to_string(it.tid) + " " +
                       std::to_string(it.ts) + " " + std::to_string(it.channel) + " " +
                       std::string(reinterpret_cast<const char*>(it.bytes.data()),  // NOLINT
                                   it.bytes.size()) +
                       "\n";
            }
            return true;
        },
        chunk);
    out += std::string("end ") + apc::to_string(end.end) + " " +
           (end.error ? end.error->to_string() : "");
    return out;
}

TEST(ReportReading, ChunkBoundariesAndShortReadsChangeNothing) {
    const fs::path capture = mixed_capture(temp_dir("reading-chunks"));
    const std::string original = read_bytes(capture / "0000000000");
    ASSERT_GT(original.size(), 100000u);
    for (int variant = 0; variant < 3; ++variant) {
        std::string bytes = original;
        if (variant == 1) bytes.resize(original.size() * 2 / 3);  // cut short
        if (variant == 2) bytes[original.size() / 2] ^= static_cast<char>(0xff);
        // One chunk holds it all: the frames as one pass over the whole file reads them.
        const std::string whole = items_of(bytes, bytes.size() + 1, bytes.size(), false);
        ASSERT_GT(whole.size(), bytes.size()) << variant;
        for (const std::size_t chunk : {std::size_t{100}, std::size_t{4093}, std::size_t{65536}}) {
            for (const std::size_t piece : {std::size_t{7}, std::size_t{1} << 20}) {
                EXPECT_EQ(items_of(bytes, chunk, piece, false), whole)
                    << "variant " << variant << ", chunk " << chunk << ", piece " << piece;
                EXPECT_EQ(items_of(bytes, chunk, piece, true), whole)
                    << "variant " << variant << ", chunk " << chunk << ", piece " << piece;
            }
        }
    }
}

// The data file is opened by the report itself (it is read, not mapped): a capture without it
// is an I/O error that names the file.
TEST(ReportReading, ACaptureWithoutItsDataFileIsAnIoErrorNamingIt) {
    const fs::path dir = temp_dir("report-no-data");
    const fs::path capture = mixed_capture(dir);
    fs::remove(capture / "0000000000");
    auto analysed = daemon::analysis::analyse_capture(capture, {});
    ASSERT_FALSE(analysed);
    EXPECT_TRUE(analysed.error().is(ErrorKind::Io)) << analysed.error().to_string();
    EXPECT_EQ(analysed.error().input, (capture / "0000000000").string());
}

}  // namespace
}  // namespace apcgate::analysis_test
