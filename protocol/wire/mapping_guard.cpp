#include "protocol/wire/mapping_guard.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <csignal>
#include <cstdint>
#include <mutex>

namespace apcgate::wire::mapping_guard {
namespace {

// Lock-free slots, so the handler can read them: `base` is 0 for a free slot; a slot is
// published by storing `base` last and retired by clearing it first.
struct Slot {
    std::atomic<std::uintptr_t> base{0};
    std::atomic<std::size_t> size{0};
    std::atomic<std::size_t> cut{SIZE_MAX};
};
constexpr std::size_t kSlots = 256;
std::array<Slot, kSlots> g_slots;
std::mutex g_claim;  // serialises add() and remove(), never taken by the handler
struct sigaction g_previous {};
std::once_flag g_installed;

void pass_on(int sig, siginfo_t* info, void* context) {
    if ((g_previous.sa_flags & SA_SIGINFO) != 0 && g_previous.sa_sigaction != nullptr) {
        g_previous.sa_sigaction(sig, info, context);
        return;
    }
    if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(sig);
        return;
    }
    // The default action, as without this guard: restored and the signal raised again, it ends
    // the process by SIGBUS once the handler returns (an ignored SIGBUS from a fault cannot be
    // ignored either: the access would fault forever).
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

void on_sigbus(int sig, siginfo_t* info, void* context) {
    const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);  // NOLINT
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    for (Slot& s : g_slots) {
        const std::uintptr_t base = s.base.load(std::memory_order_acquire);
        const std::size_t size = s.size.load(std::memory_order_acquire);
        if (base == 0 || addr < base || addr - base >= size) continue;
        const std::uintptr_t from = addr & ~(page - 1);
        const std::uintptr_t end = (base + size + page - 1) & ~(page - 1);
        void* p = ::mmap(reinterpret_cast<void*>(from), end - from, PROT_READ,  // NOLINT
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (p == MAP_FAILED) break;
        const std::size_t offset = from - base;
        std::size_t seen = s.cut.load(std::memory_order_relaxed);
        while (offset < seen && !s.cut.compare_exchange_weak(seen, offset)) {
        }
        return;
    }
    pass_on(sig, info, context);
}

void install() {
    struct sigaction act {};
    act.sa_sigaction = on_sigbus;
    act.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&act.sa_mask);
    ::sigaction(SIGBUS, &act, &g_previous);
}

}  // namespace

int add(const void* base, std::size_t size) {
    if (base == nullptr || size == 0) return -1;
    std::call_once(g_installed, install);
    const std::lock_guard lock(g_claim);
    for (std::size_t i = 0; i < kSlots; ++i) {
        Slot& s = g_slots[i];
        if (s.base.load(std::memory_order_relaxed) != 0) continue;
        s.size.store(size, std::memory_order_relaxed);
        s.cut.store(SIZE_MAX, std::memory_order_relaxed);
        s.base.store(reinterpret_cast<std::uintptr_t>(base), std::memory_order_release);  // NOLINT
        return static_cast<int>(i);
    }
    return -1;
}

void remove(int slot) {
    if (slot < 0 || static_cast<std::size_t>(slot) >= kSlots) return;
    const std::lock_guard lock(g_claim);
    g_slots[static_cast<std::size_t>(slot)].base.store(0, std::memory_order_release);
}

std::optional<std::size_t> cut_at(int slot) {
    if (slot < 0 || static_cast<std::size_t>(slot) >= kSlots) return std::nullopt;
    const std::size_t cut = g_slots[static_cast<std::size_t>(slot)].cut.load();
    if (cut == SIZE_MAX) return std::nullopt;
    return cut;
}

}  // namespace apcgate::wire::mapping_guard
