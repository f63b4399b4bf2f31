// Process and thread names (kernel object records, spec "Kernel object record": a thread object
// names its process with the koid argument "process") as the model's ThreadName and ProcComm,
// and as the name of the thread's annotation group. The prelude sends every name the prescan
// found before the first event; a later record that renames something sends the new name then.
#include <algorithm>

#include "collectors/fxt/model_mapper.hpp"
#include "collectors/fxt/text.hpp"

namespace apcgate::collectors::fxt {

void ModelMapper::prelude(model::Nanos at, std::vector<model::Event>& out) {
    const model::Nanos ts = rel(at);
    // Hash maps iterate in no particular order; sort so every capture is the same.
    std::vector<std::pair<std::uint64_t, std::string_view>> processes(index_.process_names.begin(),
                                                                      index_.process_names.end());
    std::sort(processes.begin(), processes.end());
    for (const auto& [koid, name] : processes) process_names_[koids_.id(koid)] = clean_utf8(name);

    std::vector<std::pair<std::uint64_t, ThreadInfo>> threads(index_.threads.begin(),
                                                              index_.threads.end());
    std::sort(threads.begin(), threads.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [koid, info] : threads) {
        const std::int32_t pid = koids_.id(info.pid);
        const bool process_known = process_names_.count(pid) != 0;
        if (info.name.empty() && !process_known) continue;  // nothing to tell Streamline
        thread_name(ts, koids_.id(koid), pid, clean_utf8(info.name), out);
    }
}

void ModelMapper::thread_name(model::Nanos ts, std::int32_t tid, std::int32_t pid,
                              const std::string& name, std::vector<model::Event>& out) {
    if (pid == 0) {
        auto known = thread_pids_.find(tid);
        if (known != thread_pids_.end()) pid = known->second;
    }
    auto current = thread_names_.find(tid);
    auto current_pid = thread_pids_.find(tid);
    if (current != thread_names_.end() && current->second == name &&
        current_pid != thread_pids_.end() && current_pid->second == pid) {
        return;  // the prelude already said so
    }
    thread_names_[tid] = name;
    thread_pids_[tid] = pid;
    auto process = process_names_.find(pid);
    const std::string image = process != process_names_.end() ? process->second : std::string{};
    // A thread without a name of its own shows as its process.
    const std::string comm = name.empty() ? image : name;
    if (!name.empty()) out.push_back(model::ThreadName{ts, 0, tid, name});
    out.push_back(model::ProcComm{ts, 0, pid, tid, image, comm});
    if (!comm.empty()) spans_.name_thread(ts, tid, comm, out);
}

void ModelMapper::process_name(const Item& item, std::vector<model::Event>& out) {
    const std::string name = item.text;
    auto& current = process_names_[item.pid];
    if (current == name) return;
    current = name;
    // Tell Streamline again about the threads already sent with the old process name.
    const model::Nanos ts = rel(item.ts);
    for (const auto& [tid, pid] : thread_pids_) {
        if (pid != item.pid) continue;
        const std::string& thread = thread_names_[tid];
        out.push_back(model::ProcComm{ts, 0, pid, tid, name, thread.empty() ? name : thread});
    }
}

}  // namespace apcgate::collectors::fxt
