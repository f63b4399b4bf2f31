// Threads and processes the trace names (sched_switch comms, fork/exec, statedump, LTTng-UST's
// procname context), so each name reaches the capture once, and again only when it changes
// (Thread Name message, Proc frame Comm), and each exit is reported once (Task Exit). Bounded:
// past kMaxThreads entries names are still sent, just no longer remembered.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::ctf {

inline constexpr std::size_t kMaxThreads = 1 << 20;

class ThreadTable {
  public:
    // `tid` (of process `pid`, -1 when unknown) is called `name`; `image` is the executable
    // when an exec said so.
    void learn(model::Nanos ts, std::int32_t core, std::int32_t tid, std::int32_t pid,
               std::string_view name, std::string_view image, std::vector<model::Event>& out);
    // The process of `tid` (-1 when unknown).
    [[nodiscard]] std::int32_t pid_of(std::int32_t tid) const;
    // The thread ended (sched_process_exit): one Task Exit.
    void exited(model::Nanos ts, std::int32_t tid, std::vector<model::Event>& out);
    // The kernel freed it (sched_process_free): a Task Exit unless an exit was already seen;
    // the tid may be reused afterwards.
    void freed(model::Nanos ts, std::int32_t tid, std::vector<model::Event>& out);

    [[nodiscard]] std::size_t size() const { return threads_.size(); }

  private:
    struct Info {
        std::int32_t pid = -1;
        std::string name;
        std::string image;
        bool exited = false;
    };
    std::unordered_map<std::int32_t, Info> threads_;
};

}  // namespace apcgate::collectors::ctf
