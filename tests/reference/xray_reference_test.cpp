// Every XRay log in tests/data/xray: the function records and events the converter read, per
// kind, and the call arguments, are what `llvm-xray-14 convert -output-format=yaml` prints for
// the log, and every record read is shown or skipped for a declared reason.
#include <gtest/gtest.h>

#include "reference_support.hpp"
#include "statistic_value.hpp"
#include "xray_test_support.hpp"

namespace apcgate::reference_test {
namespace {

// llvm-xray's record kinds -> the converter's.
const std::map<std::string, std::string> kKindOf{
    {"function-enter", "function-enter"}, {"function-enter-arg", "function-enter-arg"},
    {"function-exit", "function-exit"},   {"function-tail-exit", "function-tail-exit"},
    {"custom-event", "CustomEvent"},      {"typed-event", "TypedEvent"},
};

// Records that frame or place the calls (buffers, threads, CPUs, clocks).
const Reasons kStructure{
    {"FileHeader", "the log's version, type and cycle frequency"},
    {"Block", "a thread's buffer (FDR) or run of records (basic mode)"},
    {"BufferExtents", "the size of an FDR buffer"},
    {"NewBuffer", "the thread an FDR buffer belongs to"},
    {"EndOfBuffer", "the end of an FDR version 1 buffer"},
    {"NewCPUId", "the CPU the next calls ran on"},
    {"TSCWrap", "the base the next TSC deltas add to"},
    {"WallClockTime", "when the buffer started"},
    {"Pid", "the process the buffer's thread belongs to"},
    {"ArgPayload", "basic mode's record carrying one argument, counted as its CallArgument"},
};

// Kinds a capture does not show, and why. (Calls nested past the depth bound would be skipped
// entries too, but they are a problem: no log here converts with one.)
const Reasons kSkipReasons{
    {"function-exit", "its entry is not in the log: counted as xray_exits_without_entry"},
    {"function-tail-exit", "its entry is not in the log: counted as xray_exits_without_entry"},
    {"CallArgument", "past the arguments one call shows"},
};

std::uint64_t skipped(const Kinds& kinds, const std::string& kind) {
    const auto it = kinds.find(kind);
    return it == kinds.end() ? 0 : it->second.skipped;
}

Reasons skip_reasons() {
    return kSkipReasons;
}

std::vector<std::string> logs() {
    return list_inputs("xray", ".xray");
}

class XrayLog : public testing::TestWithParam<std::string> {};

TEST_P(XrayLog, RecordsPerKindAreLlvmXrays) {
    const std::string llvm_xray = xray_test::llvm_xray();
    if (llvm_xray.empty()) GTEST_SKIP() << "llvm-xray-14 (Debian package llvm-14) is not installed";
    const auto path = kTestdata / GetParam();
    std::string error;
    const auto ref = xray_test::llvm_decode(path, {}, &error);
    ASSERT_TRUE(ref) << error;
    std::map<std::string, std::uint64_t> want;
    std::uint64_t arguments = 0;
    for (const auto& [thread, records] : ref->threads) {
        for (const auto& r : records) {
            const auto kind = kKindOf.find(r.kind);
            ASSERT_NE(kind, kKindOf.end()) << "llvm-xray's kind '" << r.kind << "' has no mapping";
            ++want[kind->second];
            arguments += r.args.size();
        }
    }
    ASSERT_FALSE(want.empty());

    const Conversion c = convert(path);
    EXPECT_EQ(c.exit_code, 0) << c.output;
    EXPECT_TRUE(c.input.value("complete", false)) << c.output;
    std::map<std::string, std::uint64_t> got;
    for (const auto& [kind, n] : read_counts(c.kinds))
        for (const auto& [llvm_kind, ours] : kKindOf)
            if (ours == kind) got[kind] = n;
    EXPECT_EQ(got, want) << c.output;
    const auto args = c.kinds.find("CallArgument");
    EXPECT_EQ(args == c.kinds.end() ? 0 : args->second.read, arguments) << c.output;
    expect_every_record_accounted(c.kinds, kStructure, skip_reasons());
    // The exits skipped are the calls that began before the log, each counted once.
    EXPECT_EQ(e2e::statistic_value(c.input["statistics"], "xray_exits_without_entry"),
              skipped(c.kinds, "function-exit") + skipped(c.kinds, "function-tail-exit"))
        << c.output;
    EXPECT_EQ(e2e::statistic_value(c.input["statistics"], "xray_calls_deeper_than_limit"),
              std::optional<std::uint64_t>(0))
        << c.output;
}

INSTANTIATE_TEST_SUITE_P(Testdata, XrayLog, testing::ValuesIn(logs()), case_name);

TEST(XrayReference, LogsArePresent) {
    EXPECT_GE(logs().size(), 8U) << kTestdata / "xray";
}

}  // namespace
}  // namespace apcgate::reference_test
