// Every CTF trace in tests/data/ctf/succeed: the events `apcgate convert` read, per event name,
// and the discarded events it counted, are what `babeltrace2` prints for the trace, and every
// event read is shown or skipped for a declared reason.
#include <gtest/gtest.h>

#include "babeltrace_reference.hpp"
#include "reference_support.hpp"

namespace apcgate::reference_test {
namespace {

// The CTF report counts events per event name; its bookkeeping kinds are in parentheses.
const Reasons kStructure{
    {"(packets)", "a data stream's packet: its context places the events it holds"},
};
const Reasons kSkipReasons{};

std::vector<std::string> traces() {
    return list_inputs("ctf/succeed", "", false, /*directories=*/true);
}

class CtfTrace : public testing::TestWithParam<std::string> {};

TEST_P(CtfTrace, EventsPerNameAreBabeltraces) {
    if (!ctf_test::babeltrace_available())
        GTEST_SKIP() << "babeltrace2 (Debian package babeltrace2) is not installed";
    // libbabeltrace2 names files by their normalised paths.
    const auto path = std::filesystem::weakly_canonical(kTestdata / GetParam());
    const ctf_test::Reference ref = ctf_test::babeltrace_reference(path);
    ASSERT_EQ(ref.exit_code, 0) << ref.stderr_text;
    ASSERT_FALSE(ref.events.empty());
    const auto& want = ref.events;

    const Conversion c = convert(path);
    EXPECT_EQ(c.exit_code, 0) << c.output;
    EXPECT_TRUE(c.input.value("complete", false)) << c.output;
    std::map<std::string, std::uint64_t> events;
    for (const auto& [kind, n] : read_counts(c.kinds))
        if (kind.front() != '(') events[kind] = n;
    EXPECT_EQ(events, want) << c.output;
    const auto discarded = c.kinds.find("(discarded events)");
    EXPECT_EQ(discarded == c.kinds.end() ? 0 : discarded->second.read, ref.discarded_events);
    expect_every_record_accounted(c.kinds, kStructure, kSkipReasons);
}

INSTANTIATE_TEST_SUITE_P(Testdata, CtfTrace, testing::ValuesIn(traces()), case_name);

TEST(CtfReference, TracesArePresent) {
    EXPECT_GE(traces().size(), 8U) << kTestdata / "ctf/succeed";
}

}  // namespace
}  // namespace apcgate::reference_test
