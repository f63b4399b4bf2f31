// The kallsyms text of a Perf-framing capture as kernel function names: the function holding an
// address (up to the next symbol, data symbols as boundaries), aliases, modules, hidden
// addresses; hostile texts are skipped line by line, counted by reason, within the limits.
#include "daemon/analysis/kernel_symbols.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "daemon/analysis/image_symbols.hpp"

namespace apcgate::daemon::analysis {
namespace {

// Lines as /proc/kallsyms lists them, out of address order on purpose (modules come last there
// but load anywhere).
constexpr const char* kKallsyms =
    "ffffffff81000000 T _stext\n"
    "ffffffff81001000 T schedule\n"
    "ffffffff81001000 t __schedule_alias\n"
    "ffffffff81001400 t finish_task_switch\n"
    "ffffffff81002000 D some_data\n"
    "ffffffffc0100000 t ext4_readdir\t[ext4]\n"
    "ffffffff81000800 W weak_function\n";

TEST(KernelSymbols, NamesTheFunctionHoldingAnAddress) {
    KernelSymbols k;
    k.parse(kKallsyms);
    EXPECT_EQ(k.functions(), 6U);
    EXPECT_EQ(k.function_at(0xffffffff81000000), "_stext");
    EXPECT_EQ(k.function_at(0xffffffff810007ff), "_stext");
    EXPECT_EQ(k.function_at(0xffffffff81000800), "weak_function");
    // The global alias wins over the local one at the same address.
    EXPECT_EQ(k.function_at(0xffffffff81001010), "schedule");
    EXPECT_EQ(k.function_at(0xffffffff81001fff), "finish_task_switch");
    // A data symbol ends the function before it, and names nothing.
    EXPECT_EQ(k.function_at(0xffffffff81002010), std::nullopt);
    EXPECT_EQ(k.function_at(0xffffffffc0100040), "ext4_readdir [ext4]");
    EXPECT_EQ(k.function_at(0xffffffff80000000), std::nullopt);
    EXPECT_FALSE(k.hidden());
    EXPECT_EQ(k.skipped().total(), 0U);
}

TEST(KernelSymbols, ImageSymbolsNameKernelFramesWithThem) {
    ImageSymbols symbols(SymbolOptions{});
    EXPECT_EQ(symbols.resolve(0, static_cast<std::int64_t>(0xffffffff81001010)).name, "[kernel]");
    symbols.kernel_symbols().parse(kKallsyms);
    EXPECT_EQ(symbols.resolve(0, static_cast<std::int64_t>(0xffffffff81001010)).name,
              "[kernel] schedule");
    EXPECT_EQ(symbols.resolve(0, 5).name, "[kernel]");
}

TEST(KernelSymbols, HiddenAddressesResolveNothing) {
    KernelSymbols k;
    k.parse("0000000000000000 T _stext\n0000000000000000 T schedule\n");
    EXPECT_TRUE(k.hidden());
    EXPECT_EQ(k.function_at(0), std::nullopt);
    EXPECT_EQ(k.function_at(0xffffffff81001010), std::nullopt);
}

TEST(KernelSymbols, BrokenLinesAreSkippedAndCountedByReason) {
    KernelSymbols k;
    const std::string long_name(KernelSymbols::kMaxNameBytes + 1, 'x');
    k.parse(
        "not-hex T name\n"
        "ffffffff81000000\n"
        "ffffffff81000000 T\n"
        "ffffffff81000000 TT name\n"
        "ffffffff81000000  T name\n"
        "1ffffffff81000000 T seventeen_digits\n"
        "ffffffff81000000 T two words\n"
        "ffffffff81000000 t bad_module\tnot-bracketed\n"
        "ffffffff81000100 T " +
        long_name +
        "\n"
        "ffffffff81000200 T good\n"
        "\n");
    EXPECT_EQ(k.skipped().malformed, 8U);
    EXPECT_EQ(k.skipped().name_too_long, 1U);
    EXPECT_EQ(k.functions(), 1U);
    EXPECT_EQ(k.function_at(0xffffffff81000210), "good");
}

TEST(KernelSymbols, MemoryStaysWithinTheLimits) {
    KernelSymbols k(KernelSymbols::Limits{100, 1000});
    std::string text;
    for (int i = 0; i < 500; ++i)
        text += std::to_string(1000 + i) + " T function_" + std::to_string(i) + "\n";
    k.parse(text);
    EXPECT_LE(k.functions(), 100U);
    EXPECT_EQ(k.functions() + k.skipped().past_limit, 500U);
    // Names are bounded too: 60 names of 100 bytes do not fit in 1000 bytes.
    KernelSymbols n(KernelSymbols::Limits{1000, 1000});
    std::string big;
    for (int i = 0; i < 60; ++i)
        big += std::to_string(1000 + i) + " T " +
               std::string(100, static_cast<char>('a' + i % 26)) + "\n";
    n.parse(big);
    EXPECT_LE(n.functions(), 10U);
    EXPECT_EQ(n.functions() + n.skipped().past_limit, 60U);
}

TEST(KernelSymbols, RandomBytesNeverCrash) {
    std::mt19937 rng(7);
    for (int round = 0; round < 200; ++round) {
        std::string text(1 + rng() % 400, '\0');
        for (auto& c : text) {
            const unsigned r = rng() % 8;
            c = r == 0 ? '\n' : r == 1 ? ' ' : r == 2 ? '\t' : static_cast<char>(rng());
        }
        KernelSymbols k(KernelSymbols::Limits{64, 4096});
        k.parse(text);
        for (int i = 0; i < 20; ++i) (void)k.function_at(rng());
        EXPECT_LE(k.functions(), 64U);
    }
}

}  // namespace
}  // namespace apcgate::daemon::analysis
