#include "daemon/service/config_store.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "tests/xml/numbered_configuration.hpp"
#include "xml/documents.hpp"

namespace apcgate::daemon {
namespace {

namespace fs = std::filesystem;
using xml::testing::most_storable_numbered_counters;
using xml::testing::numbered_counters;

TEST(ConfigStore, SavesAndLoadsAndCreatesTheDirectory) {
    const fs::path dir = fs::temp_directory_path() / ("cfg-" + std::to_string(::getpid())) / "deep";
    fs::remove_all(dir.parent_path());
    ConfigStore store(dir);
    auto none = store.load();
    ASSERT_TRUE(none);
    EXPECT_FALSE(none->has_value());
    model::Configuration c;
    c.counters.push_back({"Linux_cpu_user", {}, {}, {}});
    c.counters.push_back({"ARMv8_Cortex_A53_cnt0", 0x11, 10000, {}});
    ASSERT_TRUE(store.save(c));
    auto loaded = store.load();
    ASSERT_TRUE(loaded);
    ASSERT_TRUE(loaded->has_value());
    ASSERT_EQ((*loaded)->counters.size(), 2U);
    EXPECT_EQ((*loaded)->counters[1].event, std::optional<std::uint32_t>(0x11));
    EXPECT_EQ((*loaded)->counters[1].count, std::optional<std::int64_t>(10000));
    fs::remove_all(dir.parent_path());
}

// What is accepted must load again after a restart: the largest configuration encode() allows
// is stored and loaded whole, and one counter more is refused with the reason.
TEST(ConfigStore, TheLargestStorableConfigurationLoadsAgainAndOneMoreIsRefused) {
    const std::size_t largest = most_storable_numbered_counters();
    const model::Configuration fits = numbered_counters(largest);
    ASSERT_TRUE(ConfigStore::encode(fits));
    EXPECT_LE(ConfigStore::encode(fits)->size(), xml::kMaxDocumentBytes);
    auto over = ConfigStore::encode(numbered_counters(largest + 1));
    ASSERT_FALSE(over);
    EXPECT_NE(over.error().message.find("bytes a stored configuration may have"), std::string::npos)
        << over.error().message;

    const fs::path dir = fs::temp_directory_path() / ("cfgbig-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    ConfigStore store(dir);
    ASSERT_TRUE(store.save(fits));
    auto loaded = store.load();
    ASSERT_TRUE(loaded) << loaded.error().to_string();
    ASSERT_TRUE(loaded->has_value());
    EXPECT_EQ((*loaded)->counters.size(), largest);
    EXPECT_FALSE(store.save(numbered_counters(largest + 1)));
    fs::remove_all(dir);
}

TEST(ConfigStore, RepeatedCountersAreDroppedTheFirstOneKept) {
    model::Configuration c;
    c.counters.push_back({"a", 1, {}, {}});
    c.counters.push_back({"b", {}, {}, {}});
    c.counters.push_back({"a", 2, {}, {}});
    for (int i = 0; i < 1000; ++i) c.counters.push_back({"b", {}, {}, {}});
    EXPECT_EQ(model::drop_repeated_counters(c), 1001U);
    ASSERT_EQ(c.counters.size(), 2U);
    EXPECT_EQ(c.counters[0].counter, "a");
    EXPECT_EQ(c.counters[0].event, std::optional<std::uint32_t>(1));
    EXPECT_EQ(c.counters[1].counter, "b");
    EXPECT_EQ(model::drop_repeated_counters(c), 0U);
}

TEST(ConfigStore, CorruptFileIsAnErrorNamingIt) {
    const fs::path dir = fs::temp_directory_path() / ("cfgbad-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "configuration.xml") << "<configurations revision='9'/>";
    auto r = ConfigStore(dir).load();
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().to_string().find("configuration.xml"), std::string::npos);
    fs::remove_all(dir);
}

TEST(ConfigStore, StateDirectoryFromSystemd) {
    ::setenv("STATE_DIRECTORY", "/var/lib/apcgate-test:/other", 1);
    EXPECT_EQ(default_state_dir(), fs::path("/var/lib/apcgate-test"));
    ::unsetenv("STATE_DIRECTORY");
    if (::geteuid() == 0) {
        EXPECT_EQ(default_state_dir(), fs::path("/var/lib/apcgate"));
    }
}

}  // namespace
}  // namespace apcgate::daemon
