// libpfm4 is loaded while it is used and unloaded after (collectors/pmu/libpfm.hpp): this
// binary does not link it, so whether it is mapped says whether a Libpfm is alive.
#include "collectors/pmu/libpfm.hpp"

#include <gtest/gtest.h>
#include <link.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "collectors/pmu/pmu_probe.hpp"
#include "tests/collectors/fake_tree.hpp"

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

// How many shared objects this process has ever loaded (glibc's dlpi_adds): libpfm4 is unloaded
// again before detection returns, so whether it was loaded at all shows only here.
unsigned long long objects_ever_loaded() {
    unsigned long long adds = 0;
    ::dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* out) {
            *static_cast<unsigned long long*>(out) = info->dlpi_adds;
            return 1;
        },
        &adds);
    return adds;
}

// A /sys with the event sources named, and nothing else.
std::unique_ptr<procfs::testing::FakeTree> event_sources(std::initializer_list<const char*> names) {
    auto tree = std::make_unique<procfs::testing::FakeTree>();
    for (const char* n : names) tree->sys_dir(std::string("bus/event_source/devices/") + n);
    return tree;
}

TEST(HardwarePmuListed, NotWhenTheKernelHasOnlyItsSoftwareSources) {
    // This VM's list: no PMU is passed through.
    const auto vm =
        event_sources({"breakpoint", "msr", "software", "tracepoint", "uprobe", "kprobe"});
    EXPECT_FALSE(kernel_lists_hardware_pmu(vm->sys()));
    const auto before = objects_ever_loaded();
    EXPECT_TRUE(detect_pmus(vm->sys()).empty());
    EXPECT_EQ(objects_ever_loaded(), before) << "libpfm4 was loaded";
}

TEST(HardwarePmuListed, WhenAnyOtherSourceIsThere) {
    for (const char* pmu : {"cpu", "armv8_pmuv3_0", "armv8_cortex_a53", "power", "amd_df"}) {
        const auto board = event_sources({"software", "tracepoint", pmu});
        EXPECT_TRUE(kernel_lists_hardware_pmu(board->sys())) << pmu;
    }
}

TEST(HardwarePmuListed, AskLibpfmWhenTheListCannotBeRead) {
    const procfs::testing::FakeTree empty;  // no bus/ at all
    EXPECT_TRUE(kernel_lists_hardware_pmu(empty.sys()));
    // With a hardware source listed, detection is libpfm4's.
    const auto board = event_sources({"software", "cpu"});
    const auto before = objects_ever_loaded();
    (void)detect_pmus(board->sys());
    EXPECT_GT(objects_ever_loaded(), before) << "libpfm4 was not loaded";
}

}  // namespace
}  // namespace apcgate::collectors::pmu
