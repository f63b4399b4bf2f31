// /proc/kallsyms goes out in one PERF_ATTRS message, read into a mapping of its own with room
// for the message around it, so that its 5 MB or more is never resident twice: the text read,
// and the message built around it, must be the text and the message built from it whole.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "collectors/perf/forwarded_texts.hpp"
#include "collectors/perf/mapped_text.hpp"
#include "protocol/perf_framing/frame_writer.hpp"

namespace apcgate::perf_framing {
namespace {

namespace fs = std::filesystem;
using collectors::perf::MappedText;

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

// Lines like the kernel's.
std::string symbols(std::size_t bytes) {
    std::string text;
    for (std::size_t i = 0; text.size() < bytes; ++i)
        text += "ffffffff8" + std::to_string(1000000 + i) + " T symbol_" + std::to_string(i) + "\n";
    return text;
}

TEST_F(FakeProc, AMappedTextIsTheWholeFileAcrossItsGrowth) {
    // 3 MB: the mapping starts at 1 MiB and is grown twice.
    const std::string text = symbols(std::size_t{3} << 20);
    write("kallsyms", text);
    MappedText t = MappedText::read(root_, "kallsyms", 5, 1);
    ASSERT_EQ(t.size(), text.size());
    EXPECT_TRUE(std::equal(t.bytes().begin(), t.bytes().end(), text.begin(), text.end()));
    EXPECT_EQ(t.room_before().size(), 5U);
    EXPECT_EQ(t.room_after().size(), 1U);
    MappedText moved = std::move(t);
    EXPECT_EQ(moved.size(), text.size());
    EXPECT_EQ(collectors::perf::read_proc_text(root_, "kallsyms"), text);
}

TEST_F(FakeProc, AMissingOrEmptyFileGivesNothing) {
    write("empty", "");
    EXPECT_EQ(MappedText::read(root_, "empty", 4, 1).size(), 0U);
    EXPECT_EQ(MappedText::read(root_, "missing", 4, 1).size(), 0U);
    EXPECT_EQ(collectors::perf::read_proc_text(root_, "missing"), "");
}

TEST_F(FakeProc, TheKallsymsMessageBuiltAroundTheTextIsTheMessageFromTheWholeText) {
    const std::string text = symbols(std::size_t{150} * 1024);
    write("kallsyms", text);
    std::vector<std::uint8_t> whole, head;
    AttrsFrameWriter(whole).kallsyms(std::string_view(text));
    AttrsFrameWriter(head).kallsyms_head();
    MappedText t = MappedText::read(root_, "kallsyms", head.size(), 1);
    std::copy(head.begin(), head.end(), t.room_before().begin());
    t.room_after()[0] = 0;
    const auto around = t.around(head.size(), 1);
    EXPECT_TRUE(std::equal(around.begin(), around.end(), whole.begin(), whole.end()));
    ASSERT_GT(whole.size(), text.size());
    EXPECT_EQ(whole.back(), 0) << "the text is NUL-terminated";
}

}  // namespace
}  // namespace apcgate::perf_framing
