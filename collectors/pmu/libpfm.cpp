#include "collectors/pmu/libpfm.hpp"

#include <dlfcn.h>

namespace apcgate::collectors::pmu {
namespace {

// dlsym's object pointer as the function pointer type it names (POSIX guarantees the two
// convert).
template <class Fn>
bool bind(void* handle, const char* name, Fn& fn) {
    void* sym = ::dlsym(handle, name);
    fn = reinterpret_cast<Fn>(sym);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
    return sym != nullptr;
}

}  // namespace

std::unique_ptr<Libpfm> Libpfm::load() {
    // RTLD_LOCAL: its symbols stay out of the global namespace, so nothing else binds to them
    // and the library can go when this object does.
    void* handle = ::dlopen(APCGATE_LIBPFM_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) return nullptr;
    std::unique_ptr<Libpfm> lib(new Libpfm());
    lib->handle_ = handle;
    decltype(&::pfm_initialize) initialize = nullptr;
    const bool bound = bind(handle, "pfm_initialize", initialize) &&
                       bind(handle, "pfm_terminate", lib->terminate_) &&
                       bind(handle, "pfm_get_pmu_info", lib->get_pmu_info) &&
                       bind(handle, "pfm_get_event_next", lib->get_event_next) &&
                       bind(handle, "pfm_get_event_info", lib->get_event_info) &&
                       bind(handle, "pfm_get_os_event_encoding", lib->get_os_event_encoding);
    if (!bound || initialize() != PFM_SUCCESS) {
        lib->terminate_ = nullptr;  // nothing to terminate
        return nullptr;
    }
    return lib;
}

Libpfm::~Libpfm() {
    if (terminate_ != nullptr) terminate_();
    if (handle_ != nullptr) ::dlclose(handle_);
}

}  // namespace apcgate::collectors::pmu
