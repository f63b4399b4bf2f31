// libpfm4, loaded while it is used rather than linked into the binary. Loading it relocates the
// pointers of its event tables, one for every PMU it knows (on x86-64 about 2 MB of a process's
// resident memory, before pfm_initialize runs); apcgate needs it only to detect the PMUs and to
// list their events, so a daemon that is idle or capturing, and one on a machine without a PMU
// (most VMs), does not carry it. The soname comes from the build (APCGATE_LIBPFM_SONAME); the
// package depends on libpfm4 explicitly, as dpkg-shlibdeps cannot see a library loaded this way.
#pragma once

#include <perfmon/pfmlib_perf_event.h>

#include <memory>

namespace apcgate::collectors::pmu {

class Libpfm {
  public:
    // Loads and initialises libpfm4; nullptr when it is not installed or does not initialise.
    static std::unique_ptr<Libpfm> load();
    ~Libpfm();  // pfm_terminate, then the library is unloaded
    Libpfm(const Libpfm&) = delete;
    Libpfm& operator=(const Libpfm&) = delete;

    // The entry points apcgate uses, with libpfm4's own signatures.
    decltype(&::pfm_get_pmu_info) get_pmu_info = nullptr;
    decltype(&::pfm_get_event_next) get_event_next = nullptr;
    decltype(&::pfm_get_event_info) get_event_info = nullptr;
    decltype(&::pfm_get_os_event_encoding) get_os_event_encoding = nullptr;

  private:
    Libpfm() = default;

    void* handle_ = nullptr;
    decltype(&::pfm_terminate) terminate_ = nullptr;
};

}  // namespace apcgate::collectors::pmu
