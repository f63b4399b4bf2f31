// What the reference comparisons share: listing a tests/data folder at test-listing time,
// converting one input with the real `apcgate convert --json`, and the accounting rule every
// input must meet: each record the converter read is shown in the capture or counted as skipped
// under a kind that says why.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/test_paths.hpp"

namespace apcgate::reference_test {

inline const std::filesystem::path kTestdata = apcgate::test_paths::testdata_dir();

// The files (or, with `directories`, the folders) in `dir` whose name ends in `suffix`, as
// paths relative to kTestdata, sorted; `recursive` descends into subfolders. Gtest lists the
// cases while the test program starts, so a missing folder lists nothing instead of throwing
// (each format's *IsPresent test fails then).
std::vector<std::string> list_inputs(const std::string& dir, const std::string& suffix,
                                     bool recursive = false, bool directories = false);

// A case name gtest accepts, from a listed path.
std::string case_name(const testing::TestParamInfo<std::string>& info);

struct KindCounts {
    std::uint64_t read = 0, mapped = 0, skipped = 0, bad = 0;
};
using Kinds = std::map<std::string, KindCounts>;

// NOLINTNEXTLINE(bugprone-exception-escape): a test's value; a throwing copy ends the test.
struct Conversion {
    int exit_code = -1;
    std::string output;    // what the binary printed
    nlohmann::json input;  // the --json report's inputs[0]
    Kinds kinds;           // its "records"
};

// `apcgate convert INPUT -o <scratch> --json` (with `extra` arguments).
Conversion convert(const std::filesystem::path& input, const std::vector<std::string>& extra = {});

// The read counts of `kinds`, leaving out kinds read zero times and those in `leave_out`.
std::map<std::string, std::uint64_t> read_counts(const Kinds& kinds,
                                                 const std::vector<std::string>& leave_out = {});

// Why each listed record kind is not shown, or shows nothing of its own.
using Reasons = std::map<std::string, std::string>;

// Every record read is shown or skipped: read == mapped + skipped + bad for each kind, except
// the kinds in `structure` (records that frame or define others, read and used but never an
// event of their own: headers, string tables, ...). A kind with skipped records must be one of
// `skip_reasons`, so a record dropped without a declared reason fails.
void expect_every_record_accounted(const Kinds& kinds, const Reasons& structure,
                                   const Reasons& skip_reasons);

}  // namespace apcgate::reference_test
