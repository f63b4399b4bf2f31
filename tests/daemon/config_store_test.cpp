#include "daemon/config_store.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace apcgate::daemon {
namespace {

namespace fs = std::filesystem;

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
