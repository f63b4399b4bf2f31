// /proc/kallsyms goes out in one PERF_ATTRS message, read in pieces so that its 5 MB or more is
// never copied whole beside the frame: the pieces, and the message built from them, must be the
// text and the message built from it whole.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "collectors/perf/forwarded_texts.hpp"
#include "protocol/perf_framing/frame_writer.hpp"

namespace apcgate::perf_framing {
namespace {

namespace fs = std::filesystem;

class FakeProc : public ::testing::Test {
  protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() /
                ("apcgate-kallsyms-" + std::to_string(::getpid()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(root_);
    }
    void TearDown() override { fs::remove_all(root_); }
    void write(const std::string& name, const std::string& text) {
        std::ofstream(root_ / name, std::ios::binary) << text;
    }
    fs::path root_;
};

// Lines like the kernel's, 200 KiB and more: more than three pieces, the last one partial.
std::string symbols(std::size_t bytes) {
    std::string text;
    for (std::size_t i = 0; text.size() < bytes; ++i)
        text += "ffffffff8" + std::to_string(1000000 + i) + " T symbol_" + std::to_string(i) + "\n";
    return text;
}

TEST_F(FakeProc, PiecesJoinToTheWholeTextAndNoneIsLargerThan64KiB) {
    const std::string text = symbols(200 * 1024);
    write("kallsyms", text);
    const auto pieces = collectors::perf::read_proc_pieces(root_, "kallsyms");
    ASSERT_GE(pieces.size(), 4U);
    std::string joined;
    for (const auto& p : pieces) {
        EXPECT_LE(p.size(), 64U * 1024);
        EXPECT_FALSE(p.empty());
        joined += p;
    }
    EXPECT_EQ(joined, text);
    EXPECT_EQ(collectors::perf::read_proc_text(root_, "kallsyms"), text);
}

TEST_F(FakeProc, AMissingOrEmptyFileHasNoPieces) {
    write("empty", "");
    EXPECT_TRUE(collectors::perf::read_proc_pieces(root_, "empty").empty());
    EXPECT_TRUE(collectors::perf::read_proc_pieces(root_, "missing").empty());
    EXPECT_EQ(collectors::perf::read_proc_text(root_, "missing"), "");
}

TEST_F(FakeProc, TheKallsymsMessageFromPiecesIsTheMessageFromTheWholeText) {
    const std::string text = symbols(150 * 1024);
    write("kallsyms", text);
    const auto pieces = collectors::perf::read_proc_pieces(root_, "kallsyms");
    std::vector<std::uint8_t> whole, pieced;
    AttrsFrameWriter(whole).kallsyms(std::string_view(text));
    AttrsFrameWriter(pieced).kallsyms(std::span<const std::string>(pieces));
    EXPECT_EQ(pieced, whole);
    ASSERT_GT(whole.size(), text.size());
    EXPECT_EQ(whole.back(), 0) << "the text is NUL-terminated";
}

}  // namespace
}  // namespace apcgate::perf_framing
