// Every Barman buffer in tests/data/barman: the records `apcgate convert` read, per kind, are the
// agent calls its ground-truth log lists (`NAME.raw.groundtruth.txt`): all of them for a buffer
// that kept everything, the first ones for a linear buffer that filled up and the last ones for a
// circular buffer that wrapped (the agent wrote the others over, or not at all); and every record
// read is shown or skipped for a declared reason.
#include <gtest/gtest.h>

#include "groundtruth_log.hpp"
#include "reference_support.hpp"

namespace apcgate::reference_test {
namespace {

using barman_test::LogRecord;

// The converter's record kind for what one logged agent call stored.
std::string kind_of(const LogRecord& r) {
    switch (r.kind) {
        case LogRecord::Kind::Sample:
            return r.pc ? "counter sample with PC" : "counter sample";
        case LogRecord::Kind::Custom:
            return "custom counter value";
        case LogRecord::Kind::Switch:
            return "task switch";
        case LogRecord::Kind::Annotation:
            return "annotation";
        case LogRecord::Kind::Halt:
            return "halting event";
    }
    return "?";
}

using Counts = std::map<std::string, std::uint64_t>;

Counts count(const std::vector<LogRecord>& records, std::size_t first, std::size_t end) {
    Counts c;
    for (std::size_t i = first; i < end; ++i) ++c[kind_of(records[i])];
    return c;
}

// The buffer's structure, not an agent call.
const Reasons kStructure{
    {"header", "the data store's header: configuration, tasks, PMU settings"},
    {"record block", "a length-prefixed block holding records"},
};

// Kinds a capture does not show, and why.
const Reasons kSkipReasons{
    {"padding block", "the agent's filler between blocks: no record"},
};

// Left out of the comparison with the log: the buffer's structure, and the custom counter values
// of an ambiguous series, counted a second time under that name.
const std::vector<std::string> kLeftOut{"header", "record block", "padding block",
                                        "custom counter value, ambiguous series"};

std::vector<std::string> buffers() {
    return list_inputs("barman", ".raw");
}

class BarmanBuffer : public testing::TestWithParam<std::string> {};

TEST_P(BarmanBuffer, RecordsPerKindAreTheGroundTruthLogs) {
    const auto path = kTestdata / GetParam();
    const auto truth = barman_test::read_groundtruth(path.string() + ".groundtruth.txt");
    ASSERT_FALSE(truth.records.empty()) << "no ground-truth log beside " << path;

    const Conversion c = convert(path);
    EXPECT_EQ(c.exit_code, 0) << c.output;
    EXPECT_TRUE(c.input.value("complete", false)) << c.output;
    Counts got = read_counts(c.kinds, kLeftOut);

    const std::size_t n = truth.records.size();
    const std::string name = path.filename().string();
    if (name.find("linear_full") != std::string::npos) {
        // The agent stops storing when the buffer is full: some first records, not all.
        bool found = false;
        for (std::size_t k = 1; k < n && !found; ++k) found = count(truth.records, 0, k) == got;
        EXPECT_TRUE(found) << "no first part of the log has these counts";
    } else if (name.find("circular_wrapped") != std::string::npos) {
        bool found = false;
        for (std::size_t k = 1; k < n && !found; ++k) found = count(truth.records, k, n) == got;
        EXPECT_TRUE(found) << "no last part of the log has these counts";
    } else {
        EXPECT_EQ(got, count(truth.records, 0, n)) << c.output;
    }
    expect_every_record_accounted(c.kinds, kStructure, kSkipReasons);
}

INSTANTIATE_TEST_SUITE_P(Testdata, BarmanBuffer, testing::ValuesIn(buffers()), case_name);

TEST(BarmanReference, BuffersArePresent) {
    EXPECT_GE(buffers().size(), 8U) << kTestdata / "barman";
}

}  // namespace
}  // namespace apcgate::reference_test
