// Names for a stripped --binary: its separate debug file, found by build ID under a debug
// directory or by .gnu_debuglink beside it, gives the names the unstripped build gives; a debug
// file of another build, or one whose CRC-32 the link does not record, is not used; and without
// one the note says what is missing. The debug files are made here from the workload clang-14
// builds, with binutils' objcopy and strip, as a distribution's build makes them.
#include "collectors/xray/debug_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "collectors/xray/function_names.hpp"
#include "workload_logs.hpp"
#include "xray_test_support.hpp"

namespace apcgate::xray_test {
namespace {

namespace fs = std::filesystem;
using collectors::xray::FunctionNames;
using collectors::xray::SymbolTable;

std::string quoted(const fs::path& p) {
    return "'" + p.string() + "'";
}

bool have_binutils() {
    return run("command -v objcopy >/dev/null && command -v strip >/dev/null").first == 0;
}

std::vector<std::string> all_names(FunctionNames& names) {
    std::vector<std::string> out;
    for (std::uint32_t id = 1; id <= names.size(); ++id) out.emplace_back(names.name(id));
    return out;
}

class StrippedBinary : public ::testing::Test {
  protected:
    void SetUp() override {
        if (clangxx().empty() || !have_binutils())
            GTEST_SKIP() << "needs clang-14, libclang-rt-14-dev and binutils";
        auto w = workload(false);
        ASSERT_TRUE(w) << "cannot build the workload with " << clangxx();
        unstripped_ = w->binary;
        dir_ = fs::temp_directory_path() /
               ("apcgate-debugfile-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_ / "bin");
        fs::create_directories(dir_ / "debug");
        binary_ = dir_ / "bin" / "workload";
        debug_ = dir_ / "workload.debug";
        fs::copy_file(unstripped_, binary_);
        ASSERT_EQ(run("objcopy --only-keep-debug " + quoted(binary_) + " " + quoted(debug_)).first,
                  0);
        ASSERT_EQ(run("strip " + quoted(binary_)).first, 0);
        auto reference = FunctionNames::load(unstripped_);
        ASSERT_TRUE(reference) << reference.error().to_string();
        expected_ = all_names(*reference);
        ASSERT_GT(expected_.size(), 3U);
    }
    void TearDown() override {
        std::error_code ec;
        if (!dir_.empty()) fs::remove_all(dir_, ec);
    }

    // The debug file where a debug directory keeps it by build ID.
    fs::path by_build_id(const fs::path& root) {
        auto image = collectors::xray::read_elf_image(binary_);
        EXPECT_TRUE(image);
        const std::string hex = collectors::xray::build_id_hex(image->build_id);
        EXPECT_GE(hex.size(), 4U) << "clang-14 links with a build ID on Debian";
        return root / ".build-id" / hex.substr(0, 2) / (hex.substr(2) + ".debug");
    }
    void link_debug_file(const fs::path& debug) {
        ASSERT_EQ(run("objcopy --add-gnu-debuglink=" + quoted(debug) + " " + quoted(binary_)).first,
                  0);
    }

    // Loads the stripped binary's names, expecting them from `debug_file`.
    void expect_names_from(const fs::path& debug_file, const std::vector<fs::path>& dirs) {
        auto names = FunctionNames::load(binary_, dirs);
        ASSERT_TRUE(names) << names.error().to_string();
        EXPECT_NE(names->origin().table, SymbolTable::Symtab);
        ASSERT_TRUE(names->origin().debug_file);
        EXPECT_TRUE(fs::equivalent(*names->origin().debug_file, debug_file));
        EXPECT_EQ(all_names(*names), expected_);
        EXPECT_EQ(names->origin().unnamed, 0U);
        const std::string note = names->origin_note(binary_);
        EXPECT_NE(note.find("are from its debug file " + debug_file.string()), std::string::npos)
            << note;
    }
    // Loads the stripped binary's names, expecting no debug file to have been used.
    std::string expect_no_debug_file(const std::vector<fs::path>& dirs) {
        auto names = FunctionNames::load(binary_, dirs);
        EXPECT_TRUE(names);
        if (!names) return {};
        EXPECT_FALSE(names->origin().debug_file);
        EXPECT_GT(names->origin().unnamed, 0U);
        EXPECT_NE(all_names(*names), expected_);
        return names->origin_note(binary_);
    }

    fs::path unstripped_, dir_, binary_, debug_;
    std::vector<std::string> expected_;
};

TEST_F(StrippedBinary, TheUnstrippedBuildNeedsNoDebugFileAndSaysNothing) {
    auto names = FunctionNames::load(unstripped_, std::vector<fs::path>{dir_ / "debug"});
    ASSERT_TRUE(names);
    EXPECT_EQ(names->origin().table, SymbolTable::Symtab);
    EXPECT_TRUE(names->origin().debug_tried.empty());
    EXPECT_EQ(names->origin_note(unstripped_), "");
}

TEST_F(StrippedBinary, TheDebugLinkFindsItBesideTheBinaryOrInItsDotDebug) {
    link_debug_file(debug_);
    const fs::path beside = dir_ / "bin" / "workload.debug";
    fs::rename(debug_, beside);
    expect_names_from(beside, {});
    fs::create_directories(dir_ / "bin" / ".debug");
    const fs::path dot_debug = dir_ / "bin" / ".debug" / "workload.debug";
    fs::rename(beside, dot_debug);
    expect_names_from(dot_debug, {});
}

TEST_F(StrippedBinary, TheDebugLinkFindsItUnderADebugDirectoryByTheBinarysPath) {
    link_debug_file(debug_);
    const fs::path root = dir_ / "debug";
    const fs::path mirrored =
        root / fs::canonical(binary_.parent_path()).relative_path() / "workload.debug";
    fs::create_directories(mirrored.parent_path());
    fs::rename(debug_, mirrored);
    expect_names_from(mirrored, {root});
}

TEST_F(StrippedBinary, TheBuildIdFindsItUnderADebugDirectory) {
    const fs::path root = dir_ / "debug";
    const fs::path file = by_build_id(root);
    fs::create_directories(file.parent_path());
    fs::rename(debug_, file);
    expect_names_from(file, {root});
    expect_no_debug_file({});  // not looked for where it is not
}

TEST_F(StrippedBinary, ADebugFileOfAnotherBuildIsNotUsed) {
    // The workload's other variant is another build: another build ID, other addresses.
    auto other = workload(true);
    ASSERT_TRUE(other);
    const fs::path root = dir_ / "debug";
    const fs::path file = by_build_id(root);
    fs::create_directories(file.parent_path());
    ASSERT_EQ(run("objcopy --only-keep-debug " + quoted(other->binary) + " " + quoted(file)).first,
              0);
    const std::string note = expect_no_debug_file({root});
    EXPECT_NE(note.find("looked at " + file.string()), std::string::npos) << note;
}

TEST_F(StrippedBinary, ALinkedDebugFileThatChangedSinceIsNotUsed) {
    link_debug_file(debug_);
    const fs::path beside = dir_ / "bin" / "workload.debug";
    fs::rename(debug_, beside);
    std::ofstream(beside, std::ios::app) << '\n';  // its CRC-32 is no longer the link's
    expect_no_debug_file({});
}

TEST_F(StrippedBinary, WithoutADebugFileTheNoteSaysWhatIsMissingAndWhereItWasLookedFor) {
    const fs::path root = dir_ / "debug";
    const std::string note = expect_no_debug_file({root});
    const std::string where = by_build_id(root).string();
    for (const std::string& part : std::vector<std::string>{
             binary_.string() + " is stripped (no .symtab) and no debug file of it was found",
             "looked at " + where, "instrumented functions show as fn#ID",
             "Pass the unstripped executable as --binary, or --debug-dir DIR with DIR/.build-id/"})
        EXPECT_NE(note.find(part), std::string::npos) << part << "\n in: " << note;
    auto names = FunctionNames::load(binary_, std::vector<fs::path>{root});
    ASSERT_TRUE(names);
    for (std::uint32_t id = 1; id <= names->size(); ++id) {
        const std::string name(names->name(id));
        if (name.rfind("fn#", 0) == 0) {
            EXPECT_EQ(name, "fn#" + std::to_string(id));
        }
    }
}

}  // namespace
}  // namespace apcgate::xray_test
