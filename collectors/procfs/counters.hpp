// The counters this source offers: their names and how Streamline should chart them.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "protocol/model/counter_catalog.hpp"

namespace apcgate::collectors::procfs {

enum class CounterId : std::size_t {
    CpuUser,
    CpuSystem,
    CpuIdle,
    MemUsed,
    MemFree,
    MemCached,
    MemBuffers,
    Load1,
    Load5,
    Load15,
    NetRx,
    NetTx,
    DiskRead,
    DiskWrite,
    ContextSwitches,
    Interrupts,
};
inline constexpr std::size_t kCounterCount = static_cast<std::size_t>(CounterId::Interrupts) + 1;

inline constexpr std::array<std::string_view, kCounterCount> kCounterNames = {
    "Linux_cpu_user",          "Linux_cpu_system",      "Linux_cpu_idle",
    "Linux_meminfo_memused2",  "Linux_meminfo_memfree", "Linux_meminfo_cached",
    "Linux_meminfo_bufferram", "Linux_loadavg_1",       "Linux_loadavg_5",
    "Linux_loadavg_15",        "Linux_net_rx",          "Linux_net_tx",
    "Linux_block_rq_rd",       "Linux_block_rq_wr",     "Linux_sched_ctxt_switches",
    "Linux_irq_total",
};

inline std::string_view counter_name(CounterId id) {
    return kCounterNames[static_cast<std::size_t>(id)];
}

// The catalog entry for a counter (category "Linux"; Block delivery).
model::CounterSpec counter_spec(CounterId id);

}  // namespace apcgate::collectors::procfs
