// libpfm4 is loaded while it is used and unloaded after (collectors/pmu/libpfm.hpp): this
// binary does not link it, so whether it is mapped says whether a Libpfm is alive.
#include "collectors/pmu/libpfm.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "collectors/pmu/pmu_probe.hpp"

namespace apcgate::collectors::pmu {
namespace {

bool libpfm_mapped() {
    std::ifstream maps("/proc/self/maps");
    std::stringstream text;
    text << maps.rdbuf();
    return text.str().find("/libpfm.so") != std::string::npos;
}

TEST(Libpfm, LoadsWhileUsedAndIsGoneAfter) {
    ASSERT_FALSE(libpfm_mapped()) << "linked or left loaded by an earlier test";
    {
        const auto lib = Libpfm::load();
        ASSERT_NE(lib, nullptr) << "libpfm4 (" APCGATE_LIBPFM_SONAME ") is installed here";
        EXPECT_TRUE(libpfm_mapped());
        // The kernel's perf software events are a pseudo-PMU libpfm4 always reports.
        pfm_pmu_info_t info;
        std::memset(&info, 0, sizeof info);
        info.size = sizeof info;
        ASSERT_EQ(lib->get_pmu_info(PFM_PMU_PERF_EVENT, &info), PFM_SUCCESS);
        EXPECT_STREQ(info.name, "perf");
        EXPECT_TRUE(info.is_present);
        // Its events are listed and described through the bound entry points.
        ASSERT_NE(info.first_event, -1);
        pfm_event_info_t ev;
        std::memset(&ev, 0, sizeof ev);
        ev.size = sizeof ev;
        ASSERT_EQ(lib->get_event_info(info.first_event, PFM_OS_PERF_EVENT, &ev), PFM_SUCCESS);
        EXPECT_NE(ev.name, nullptr);
    }
    EXPECT_FALSE(libpfm_mapped());
    // Detection loads it again, and lets it go again.
    (void)detect_pmus();
    EXPECT_FALSE(libpfm_mapped());
}

TEST(Libpfm, LoadsAgainAfterUnloading) {
    for (int i = 0; i < 3; ++i) {
        const auto lib = Libpfm::load();
        ASSERT_NE(lib, nullptr);
        pfm_pmu_info_t info;
        std::memset(&info, 0, sizeof info);
        info.size = sizeof info;
        EXPECT_EQ(lib->get_pmu_info(PFM_PMU_PERF_EVENT, &info), PFM_SUCCESS) << "round " << i;
    }
}

}  // namespace
}  // namespace apcgate::collectors::pmu
