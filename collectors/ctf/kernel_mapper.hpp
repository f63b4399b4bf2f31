// The dedicated mappings of LTTng kernel events (lttng-modules):
//   sched_switch            -> Activity Switch on the event's core: the next task becomes active
//                              (activity 1, or 0 = idle for the swapper, tid 0), with the wait
//                              state of the previous task from prev_state (R = preempted:
//                              contention; D = uninterruptible sleep: I/O; else other); both
//                              comms become thread names
//   sched_process_fork      -> the child's thread name and process (Proc Comm)
//   sched_process_exec      -> the thread's new name and image
//   sched_process_exit/free -> Task Exit (once per thread)
//   lttng_statedump_process_state -> thread name and process of every task alive at start
//   irq_handler_entry/exit, softirq entry/exit -> per-core counts and time in handler
// Interrupt nesting is tracked per core with a bounded stack.
#pragma once

#include <babeltrace2/babeltrace.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "collectors/ctf/ctf_counters.hpp"
#include "collectors/ctf/event_plan.hpp"
#include "collectors/ctf/thread_table.hpp"
#include "protocol/model/event.hpp"

namespace apcgate::collectors::ctf {

inline constexpr std::size_t kMaxIrqNesting = 32;
inline constexpr std::size_t kMaxIrqCores = 4096;

class KernelMapper {
  public:
    KernelMapper(ThreadTable& threads, const CounterKeys& keys) : threads_(threads), keys_(keys) {}

    // Maps an event whose plan has a kernel kind; false when the kind is not a kernel one.
    bool map(const EventPlan& plan, const bt_field* payload, model::Nanos ts, std::int32_t core,
             std::vector<model::Event>& out);

    static model::WaitState wait_state(std::int64_t prev_state);

  private:
    void sched_switch(const EventPlan& plan, const bt_field* payload, model::Nanos ts,
                      std::int32_t core, std::vector<model::Event>& out);
    void handler_entry(bool soft, model::Nanos ts, std::int32_t core,
                       std::vector<model::Event>& out);
    void handler_exit(bool soft, model::Nanos ts, std::int32_t core,
                      std::vector<model::Event>& out);

    ThreadTable& threads_;
    const CounterKeys& keys_;
    // (core, soft) -> entry times of the handlers running on that core, innermost last.
    std::unordered_map<std::uint32_t, std::vector<model::Nanos>> entries_;
};

}  // namespace apcgate::collectors::ctf
