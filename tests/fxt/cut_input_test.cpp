// An archive cut short while a capture reads it (a producer rewriting its trace in place): the
// capture ends with what was read before, the report says the file was cut and where, and the
// process lives on (reading a mapped page past the file's new end raises SIGBUS, which ended it
// before: wire/mapping_guard.hpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "collectors/fxt/fxt_source.hpp"
#include "fxt_writer.hpp"

namespace apcgate::collectors::fxt {
namespace {

using namespace fxt_test;  // NOLINT: the writer's small vocabulary

std::filesystem::path write_archive(std::size_t min_bytes) {
    FxtWriter head;
    head.magic();
    head.initialization(1'000'000'000);
    head.string_record(1, "cat");
    head.string_record(2, "name");
    std::vector<std::uint8_t> bytes = head.bytes();
    for (std::uint64_t t = 1000; bytes.size() < min_bytes; t += 1000) {
        FxtWriter one;
        one.event(0, t, inline_thread(1, 2), idx(1), idx(2), {arg_u32(inl("n"), 7)});
        bytes.insert(bytes.end(), one.bytes().begin(), one.bytes().end());
    }
    auto path = std::filesystem::temp_directory_path() /
                ("apcgate-cut-input-" + std::to_string(::getpid()) + ".fxt");
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),  // NOLINT: bytes to a byte stream
              static_cast<std::streamsize>(bytes.size()));
    return path;
}

// Cut after the first poll: past where reading is (found at the next poll), or behind it (the
// next read faults on a page past the new end).
class FxtCutInput : public testing::TestWithParam<std::uintmax_t> {};

TEST_P(FxtCutInput, AnArchiveCutWhileACaptureReadsItEndsTheCaptureWithTheCutReported) {
    // Several polls' worth (a poll reads at most 1 MiB).
    const auto path = write_archive(std::size_t{8} << 20);
    const auto full = std::filesystem::file_size(path);
    auto opened = FxtSource::open(path);
    ASSERT_TRUE(opened) << opened.error().to_string();
    FxtSource& source = **opened;
    model::CounterCatalog catalog;
    source.declare(catalog);
    const auto counters = model::CaptureCounters::assign(catalog, model::Configuration{});
    const model::CaptureSettings settings;
    ASSERT_TRUE(source.start({settings, counters, source.time_origin()}).ok());
    std::vector<model::Event> before;
    ASSERT_FALSE(source.poll(0, before).finished);
    ASSERT_FALSE(before.empty());

    const std::uintmax_t cut = GetParam();
    std::filesystem::resize_file(path, cut);
    std::vector<model::Event> after;
    bool finished = false;
    for (int polls = 0; !finished && polls < 100; ++polls)
        finished = source.poll(0, after).finished;
    EXPECT_TRUE(finished);
    source.stop(0, after);

    const auto& report = source.report();
    ASSERT_TRUE(report.stop_reason()) << "the cut was not reported";
    const Error& why = *report.stop_reason();
    EXPECT_EQ(why.kind, ErrorKind::Truncated);
    EXPECT_EQ(why.record, "file");
    EXPECT_EQ(why.offset, cut);
    EXPECT_NE(why.message.find("cut short while it was being read"), std::string::npos);
    EXPECT_NE(why.message.find(std::to_string(full) + " bytes when it was opened"),
              std::string::npos)
        << why.message;
    EXPECT_LT(report.bytes_done, full);
    std::filesystem::remove(path);
}

INSTANTIATE_TEST_SUITE_P(AheadAndBehind, FxtCutInput,
                         testing::Values((std::uintmax_t{3} << 20) + 100, 4096 + 100));

}  // namespace
}  // namespace apcgate::collectors::fxt
