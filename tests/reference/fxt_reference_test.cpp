// Every FXT archive in tests/data/fxt: the records the converter read, per kind, are the records
// an independent walk over the archive finds (fxt_walk.hpp), the read stops where the walk
// stops, and every record read is shown or skipped for a declared reason.
#include <gtest/gtest.h>

#include "fxt_walk.hpp"
#include "reference_support.hpp"

namespace apcgate::reference_test {
namespace {

// The walker's names (the spec's) -> the converter's record kinds.
const std::map<std::string, std::string> kKindOf{
    {"magic number", "magic number"},
    {"trace info", "trace info"},
    {"provider info", "provider info"},
    {"provider section", "provider section"},
    {"provider event", "provider event"},
    {"metadata, other", "metadata of unknown type"},
    {"initialization", "initialization"},
    {"string", "string"},
    {"thread", "thread"},
    {"instant", "instant event"},
    {"counter", "counter event"},
    {"duration begin", "duration begin"},
    {"duration end", "duration end"},
    {"duration complete", "duration complete"},
    {"async begin", "async begin"},
    {"async instant", "async instant"},
    {"async end", "async end"},
    {"flow begin", "flow begin"},
    {"flow step", "flow step"},
    {"flow end", "flow end"},
    {"event, other", "event of unknown type"},
    {"blob", "blob"},
    {"large blob", "large blob"},
    {"large, other", "large record of unknown type"},
    {"userspace object", "userspace object"},
    {"kernel object", "kernel object"},
    {"context switch, spec layout", "context switch (legacy layout)"},
    {"context switch", "context switch"},
    {"thread wakeup", "thread wakeup"},
    {"fiber switch", "fiber switch"},
    {"scheduling, other", "scheduling record of unknown type"},
    {"log", "log"},
};

// Records that set up the tables and clocks the other records are read with.
const Reasons kStructure{
    {"magic number", "marks the archive's start and byte order"},
    {"provider info", "names a provider and starts its tables"},
    {"provider section", "switches to a provider's tables"},
    {"initialization", "the tick rate the timestamps are read with"},
    {"string", "an entry of the string table the events name"},
    {"thread", "an entry of the thread table the events name"},
    {"userspace object", "names a pointer the events' arguments may hold"},
};

// Kinds a capture does not show, and why.
const Reasons kSkipReasons{
    {"blob", "binary data: a Streamline capture has no place for it"},
    {"large blob", "binary data: a Streamline capture has no place for it"},
    {"thread wakeup", "Streamline shows no wakeups (the switch that follows runs the thread)"},
    {"fiber switch", "Streamline has no fibers (the thread that runs them is shown)"},
    {"trace info", "describes the archive, nothing to show on a timeline"},
    {"kernel object", "names an object that is no process or thread"},
};

std::vector<std::string> archives() {
    return list_inputs("fxt", ".fxt", /*recursive=*/true);
}

class FxtArchive : public testing::TestWithParam<std::string> {};

TEST_P(FxtArchive, RecordsReadPerKindAreTheIndependentWalks) {
    const auto path = kTestdata / GetParam();
    const FxtWalk walk = walk_fxt(path);
    ASSERT_FALSE(walk.records.empty()) << "not even a magic number record";
    std::map<std::string, std::uint64_t> want;
    for (const auto& [name, n] : walk.records) {
        const auto kind = kKindOf.find(name);
        ASSERT_NE(kind, kKindOf.end()) << "the walker's kind '" << name << "' has no mapping";
        want[kind->second] += n;
    }

    const Conversion c = convert(path);
    EXPECT_EQ(read_counts(c.kinds), want) << c.output;
    if (walk.stopped_at) {
        EXPECT_FALSE(c.input.value("complete", true)) << c.output;
        ASSERT_TRUE(c.input.contains("stopped")) << c.output;
        EXPECT_EQ(c.input["stopped"].value("offset", std::uint64_t{0}), *walk.stopped_at)
            << c.output;
    } else {
        EXPECT_EQ(c.exit_code, 0) << c.output;
        EXPECT_TRUE(c.input.value("complete", false)) << c.output;
    }
    expect_every_record_accounted(c.kinds, kStructure, kSkipReasons);
}

INSTANTIATE_TEST_SUITE_P(Testdata, FxtArchive, testing::ValuesIn(archives()), case_name);

TEST(FxtReference, ArchivesArePresent) {
    EXPECT_GE(archives().size(), 11U) << kTestdata / "fxt";
}

}  // namespace
}  // namespace apcgate::reference_test
