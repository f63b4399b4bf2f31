// The MAPS text of a process running when a Perf-framing capture began: its executable mappings
// resolve that process's sample addresses to image+offset (then symbols); hostile texts are
// skipped line by line, counted by reason, and the mappings kept stay within their bound.
#include "daemon/analysis/maps_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "daemon/analysis/perf_samples.hpp"

namespace apcgate::daemon::analysis {
namespace {

constexpr const char* kMaps =
    "55d0c0000000-55d0c0001000 r--p 00000000 08:01 1234   /usr/bin/app\n"
    "55d0c0001000-55d0c0005000 r-xp 00001000 08:01 1234   /usr/bin/app\n"
    "55d0c0005000-55d0c0006000 rw-p 00005000 08:01 1234   /usr/bin/app\n"
    "7f0000000000-7f0000021000 rw-p 00000000 00:00 0 \n"
    "7f1000028000-7f100019d000 r-xp 00028000 08:01 99     /usr/lib/x86_64-linux-gnu/libc.so.6\n"
    "7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0      [vdso]\n";

std::vector<collectors::perf::MapsEntry> executable(std::string_view text, MapsSkipped* skipped,
                                                    std::size_t room = 1000) {
    std::vector<collectors::perf::MapsEntry> out;
    *skipped = for_each_executable_mapping(text, [&](const collectors::perf::MapsEntry& m) {
        if (out.size() >= room) return false;
        out.push_back(m);
        return true;
    });
    return out;
}

TEST(MapsText, GivesTheExecutableMappingsWithTheirOffsets) {
    MapsSkipped skipped;
    const auto maps = executable(kMaps, &skipped);
    ASSERT_EQ(maps.size(), 3U);
    EXPECT_EQ(maps[0].path, "/usr/bin/app");
    EXPECT_EQ(maps[0].start, 0x55d0c0001000U);
    EXPECT_EQ(maps[0].end, 0x55d0c0005000U);
    EXPECT_EQ(maps[0].pgoff, 0x1000U);
    EXPECT_EQ(maps[1].path, "/usr/lib/x86_64-linux-gnu/libc.so.6");
    EXPECT_EQ(maps[2].path, "[vdso]");
    EXPECT_EQ(skipped.total(), 0U);
}

TEST(MapsText, BrokenAndOverlongLinesAreSkippedAndCountedByReason) {
    const std::string long_path(kMaxMapsLineBytes, 'p');
    const std::string text =
        "zz-10 r-xp 0 08:01 1 /bad/start\n"
        "20-10 r-xp 0 08:01 1 /end/before/start\n"
        "10-20 r 0 08:01 1 /short/perms\n"
        "10-20 r-xp nothex 08:01 1 /bad/offset\n"
        "garbage\n"
        "1000-2000 r-xp 00000000 08:01 1 /" +
        long_path +
        "\n"
        "3000-4000 r-xp 00000000 08:01 1 /good\n";
    MapsSkipped skipped;
    const auto maps = executable(text, &skipped);
    ASSERT_EQ(maps.size(), 1U);
    EXPECT_EQ(maps[0].path, "/good");
    EXPECT_EQ(skipped.malformed, 5U);
    EXPECT_EQ(skipped.too_long, 1U);
    EXPECT_EQ(skipped.past_limit, 0U);
}

TEST(MapsText, MappingsPastTheCallersRoomAreCounted) {
    std::string text;
    for (int i = 0; i < 50; ++i)
        text += std::to_string(10 + i) + "000-" + std::to_string(10 + i) +
                "800 r-xp 0 08:01 1 /lib" + std::to_string(i) + ".so\n";
    MapsSkipped skipped;
    const auto maps = executable(text, &skipped, 20);
    EXPECT_EQ(maps.size(), 20U);
    EXPECT_EQ(skipped.past_limit, 30U);
}

TEST(MapsText, RandomBytesNeverCrash) {
    std::mt19937 rng(11);
    for (int round = 0; round < 200; ++round) {
        std::string text(1 + rng() % 600, '\0');
        for (auto& c : text) {
            const unsigned r = rng() % 10;
            c = r == 0   ? '\n'
                : r == 1 ? ' '
                : r == 2 ? '-'
                : r < 6  ? "0123456789abcdef"[rng() % 16]
                         : static_cast<char>(rng());
        }
        MapsSkipped skipped;
        const auto maps = executable(text, &skipped, 8);
        EXPECT_LE(maps.size(), 8U);
    }
}

// A sample of a process known only from its MAPS text lands in its image at the file offset
// (ip - start + pgoff) and is named by that image ("app+0x..." when it cannot be read).
TEST(MapsText, PerfSamplesResolveAddressesThroughTheMapsText) {
    ImageSymbols symbols(SymbolOptions{{}, "/nonexistent-sysroot", {}});
    StackProfile stacks(symbols, std::nullopt);
    PerfSamples samples(symbols, stacks);
    samples.maps(42, kMaps);

    perf_framing::PerfAttr attr;
    perf_framing::PerfRecord rec;
    rec.header.type = 9;  // PERF_RECORD_SAMPLE
    rec.header.misc = 2;  // user mode
    rec.pid = 42;
    rec.tid = 42;
    rec.ip = 0x55d0c0001234;
    perf_framing::RecordView v{0, 0, 1, &attr, &rec};
    samples.record(v);
    rec.pid = 43;  // no mappings known
    rec.tid = 43;
    samples.record(v);

    Report r;
    stacks.fill(r);
    samples.fill(r);
    std::vector<std::string> names;
    for (const auto& f : r.functions) names.push_back(f.name);
    EXPECT_NE(std::find(names.begin(), names.end(), "app+0x1234"), names.end())
        << testing::PrintToString(names);
    EXPECT_NE(std::find(names.begin(), names.end(), "[unknown]"), names.end());
    EXPECT_TRUE(r.losses.empty());
}

}  // namespace
}  // namespace apcgate::daemon::analysis
