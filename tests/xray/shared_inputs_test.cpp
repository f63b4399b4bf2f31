// LLVM's own llvm-xray test inputs (FDR v1 and v3, basic-mode v1-v3, with and without logged
// arguments): per thread, the reader's entries, exits, arguments, TSCs and CPUs equal the
// reference decode that sits beside each log (llvm-xray convert -output-format=yaml), as do the
// report's read counts per record kind, and the sample binary's instrumentation map gives
// llvm-xray's symbol names.
#include <gtest/gtest.h>

#include <map>

#include "collectors/xray/function_names.hpp"
#include "collectors/xray/xray_header.hpp"
#include "xray_test_support.hpp"

namespace apcgate::xray_test {
namespace {

struct Input {
    const char* log;
    std::uint16_t version;
    collectors::xray::LogType type;
    std::size_t records;
};

class SharedInput : public ::testing::TestWithParam<Input> {};

TEST_P(SharedInput, PerThreadSequenceEqualsLlvmXrayReference) {
    const Input& in = GetParam();
    const auto bytes = read_bytes(testdata(std::string(in.log) + ".xray"));
    ASSERT_FALSE(bytes.empty()) << in.log;
    std::string error;
    auto ref = parse_llvm_yaml(
        [&] {
            const auto y = read_bytes(testdata(std::string(in.log) + ".ref.yaml"));
            return std::string(y.begin(), y.end());
        }(),
        &error);
    ASSERT_TRUE(ref) << error;
    EXPECT_EQ(ref->records, in.records);

    const Decoded d = decode(bytes, in.log);
    ASSERT_TRUE(d.opened) << d.error;
    EXPECT_TRUE(d.report->complete()) << d.report->stop_reason()->to_string();
    EXPECT_EQ(d.report->problem_count(), 0U);
    EXPECT_EQ(d.records, in.records);
    // The report counts the records as llvm-xray names them: an entry followed by arguments is
    // a function-enter-arg, and each argument a CallArgument (basic mode's ArgPayload too).
    std::map<std::string, std::uint64_t> want, got;
    for (const auto& [thread, recs] : ref->threads) {
        for (const auto& r : recs) {
            ++want[r.kind];
            if (!r.args.empty()) want["CallArgument"] += r.args.size();
        }
    }
    for (const auto& [kind, s] : d.report->kinds())
        if (s.read > 0 && (kind.rfind("function-", 0) == 0 || kind == "CallArgument"))
            got[kind] = s.read;
    EXPECT_EQ(got, want);
    auto mine = d.threads;
    sort_by_tsc(mine);
    sort_by_tsc(ref->threads);
    expect_same_threads(mine, ref->threads, in.log);
    // The index knows every CPU a record names (a thread may move in mid-buffer:
    // fdr-log-version-1's starts on CPU 5 and goes on on 6), so every one is a declared core.
    std::uint32_t ref_max_cpu = 0;
    for (const auto& [key, recs] : ref->threads)
        for (const auto& r : recs) ref_max_cpu = std::max(ref_max_cpu, r.cpu);
    EXPECT_EQ(d.max_cpu, ref_max_cpu) << in.log;

    auto header = collectors::xray::read_file_header(bytes, in.log);
    ASSERT_TRUE(header);
    EXPECT_EQ(header->version, in.version);
    EXPECT_EQ(header->type, in.type);
    EXPECT_EQ(header->cycle_frequency, ref->cycle_frequency);
}

using LT = collectors::xray::LogType;
INSTANTIATE_TEST_SUITE_P(LlvmInputs, SharedInput,
                         ::testing::Values(Input{"fdr-log-version-1", 1, LT::Fdr, 13},
                                           Input{"fdr-log-arg1", 1, LT::Fdr, 2},
                                           Input{"fdr-log-version-3", 3, LT::Fdr, 6},
                                           Input{"fdr-log-arg1-version-3", 3, LT::Fdr, 6},
                                           Input{"naive-log-simple", 1, LT::Basic, 6},
                                           Input{"naive-with-arg1-entries", 2, LT::Basic, 4},
                                           Input{"basic-log-version-3", 3, LT::Basic, 8},
                                           Input{"basic-log-arg1-version-3", 3, LT::Basic, 6}),
                         [](const auto& param_info) {
                             std::string n = param_info.param.log;
                             for (auto& c : n)
                                 if (c == '-') c = '_';
                             return n;
                         });

TEST(SharedInputSymbols, SampleBinaryNamesLikeLlvmXraySymbolize) {
    auto names = collectors::xray::FunctionNames::load(testdata("elf64-sample-o2.bin"));
    ASSERT_TRUE(names) << names.error().to_string();
    EXPECT_EQ(names->size(), 3U);
    EXPECT_EQ(names->name(1), "bar()");
    EXPECT_EQ(names->name(2), "foo()");
    EXPECT_EQ(names->name(3), "main");
    EXPECT_EQ(names->name(4), "fn#4");  // not in the map
    EXPECT_EQ(names->name(0), "fn#0");
}

TEST(SharedInputSymbols, LiveLlvmXraySymbolizesTheSameNames) {
    if (llvm_xray().empty()) GTEST_SKIP() << "llvm-xray-14 not installed";
    std::string error;
    auto ref =
        llvm_decode(testdata("naive-log-simple.xray"), testdata("elf64-sample-o2.bin"), &error);
    ASSERT_TRUE(ref) << error;
    auto names = collectors::xray::FunctionNames::load(testdata("elf64-sample-o2.bin"));
    ASSERT_TRUE(names);
    std::size_t checked = 0;
    for (const auto& [key, recs] : ref->threads) {
        for (const auto& r : recs) {
            EXPECT_EQ(names->name(r.function), r.name) << to_string(r);
            ++checked;
        }
    }
    EXPECT_EQ(checked, 6U);
}

TEST(SharedInputSymbols, NotAnElfOrNoMapIsAClearError) {
    auto not_elf = collectors::xray::FunctionNames::load(testdata("naive-log-simple.xray"));
    ASSERT_FALSE(not_elf);
    EXPECT_NE(not_elf.error().to_string().find("not an ELF file"), std::string::npos);
    auto no_map = collectors::xray::FunctionNames::load("/bin/true");
    ASSERT_FALSE(no_map);
    EXPECT_NE(no_map.error().to_string().find("no xray_instr_map"), std::string::npos);
    auto missing = collectors::xray::FunctionNames::load("/nonexistent/binary");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().to_string().find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace apcgate::xray_test
