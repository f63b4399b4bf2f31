#include "collectors/perf/event_mapper.hpp"

#include <algorithm>

#include "protocol/wire/overloaded.hpp"

namespace apcgate::collectors::perf {
namespace {

// Callchain context markers (linux/perf_event.h enum perf_callchain_context), as u64.
constexpr std::uint64_t kContextKernel = static_cast<std::uint64_t>(-128);
constexpr std::uint64_t kContextUser = static_cast<std::uint64_t>(-512);
constexpr std::uint64_t kContextMax = static_cast<std::uint64_t>(-4095);

using wire::Overloaded;

}  // namespace

void EventMapper::seed_process(std::int32_t pid, std::string image,
                               const std::vector<MapsEntry>& maps) {
    if (processes_.size() >= kMaxProcesses) return;
    auto p = std::make_unique<Process>();
    p->image = std::move(image);
    for (const MapsEntry& m : maps)
        p->space.map(m.start, m.end - m.start, m.pgoff, cookies_.cookie(m.path));
    processes_[pid] = std::move(p);
}

void EventMapper::seed_thread(std::int32_t tid, std::int32_t pid, std::string comm) {
    if (threads_.size() >= kMaxThreads) return;
    threads_[tid] = Thread{pid, std::move(comm), false};
}

void EventMapper::name_seeded(std::vector<model::Event>& out) {
    std::vector<std::int32_t> tids;
    for (const auto& [tid, t] : threads_) tids.push_back(tid);
    std::sort(tids.begin(), tids.end());
    for (std::int32_t tid : tids) {
        const Thread& t = threads_[tid];
        const Process* p = process(t.pid);
        out.emplace_back(model::ProcComm{0, 0, t.pid, tid, p != nullptr ? p->image : "", t.comm});
        out.emplace_back(model::ThreadName{0, 0, tid, t.comm});
    }
}

EventMapper::Process* EventMapper::process(std::int32_t pid) {
    if (pid <= 0) return nullptr;
    auto it = processes_.find(pid);
    if (it != processes_.end()) return it->second.get();
    if (processes_.size() >= kMaxProcesses) {
        ++stats_[PerfStat::TablesFull];
        return nullptr;
    }
    // First sight of a process that existed before its records did: /proc says what it is
    // (memoized even when it has gone, so a vanished process is read once).
    auto p = std::make_unique<Process>();
    if (proc_ != nullptr) {
        p->image = proc_->image(pid);
        for (const MapsEntry& m : proc_->maps(pid))
            p->space.map(m.start, m.end - m.start, m.pgoff, cookies_.cookie(m.path));
    }
    return (processes_[pid] = std::move(p)).get();
}

EventMapper::Thread* EventMapper::thread(std::int32_t tid, std::int32_t pid_hint,
                                         const std::string& comm, model::Nanos ts,
                                         std::int32_t core, std::vector<model::Event>& out) {
    if (tid <= 0) return nullptr;
    auto it = threads_.find(tid);
    if (it != threads_.end()) {
        Thread& t = it->second;
        if (pid_hint > 0) t.pid = pid_hint;
        if (!comm.empty() && comm != t.comm && ts >= t.named_at) {
            t.comm = comm;
            t.named_at = ts;
            out.emplace_back(model::ThreadName{ts, core, tid, comm});
        }
        return &t;
    }
    if (threads_.size() >= kMaxThreads) {
        ++stats_[PerfStat::TablesFull];
        return nullptr;
    }
    std::int32_t pid = pid_hint;
    if (pid <= 0) pid = proc_ != nullptr ? proc_->tgid(tid).value_or(tid) : tid;
    std::string name = comm;
    if (name.empty() && proc_ != nullptr) name = proc_->comm(pid, tid);
    Thread& t = threads_[tid] = Thread{pid, name, false, ts};
    if (!name.empty()) out.emplace_back(model::ThreadName{ts, core, tid, name});
    return &t;
}

std::int32_t EventMapper::exec_cookie(std::int32_t pid, model::Nanos ts, std::int32_t core,
                                      std::vector<model::Event>& out) {
    if (pid <= 0) return kKernelCookie;
    Process* p = process(pid);
    if (p == nullptr || p->awaiting_image) return kUnknownCookie;
    const std::int32_t c = cookies_.cookie(p->image);
    cookies_.announce(c, ts, core, out);
    return c;
}

void EventMapper::link(std::int32_t tid, Thread& t, model::Nanos ts, std::int32_t core,
                       std::vector<model::Event>& out) {
    if (t.linked) return;
    const Process* p = process(t.pid);
    if (p != nullptr && p->awaiting_image) return;  // linked once exec's image is known
    const std::int32_t cookie = exec_cookie(t.pid, ts, core, out);
    out.emplace_back(model::ActivityLink{ts, cookie, t.pid, tid});
    t.linked = true;
}

void EventMapper::map(const TraceEvent& e, model::Nanos ts, std::vector<model::Event>& out) {
    std::visit(
        Overloaded{
            [&](const SwitchEv& v) { on_switch(v, ts, out); },
            [&](const ForkEv& v) { on_fork(v, ts, out); },
            [&](const ExitEv& v) { on_exit(v, ts, out); },
            [&](const CommEv& v) { on_comm(v, ts, out); },
            [&](const MmapEv& v) { on_mmap(v, ts, out); },
            [&](const SampleEv& v) { on_sample(v, ts, out); },
            [&](const IdleEv& v) {
                out.emplace_back(model::Idle{ts, v.cpu, v.state});
            },
            [&](const CounterEv& v) {
                out.emplace_back(model::CounterSample{ts, v.cpu, v.key, v.value, -1});
            },
            [&](const ActivityTickEv& v) {
                if (!activity_key_) return;
                if (auto share = running_.end_period(v.cpu, ts))
                    out.emplace_back(model::CounterSample{ts, v.cpu, *activity_key_, *share, -1});
            },
            [&](const NoteEv& v) {
                model::Annotation a;
                a.ts = ts;
                a.body.emplace<model::TextAnnotation>().text = v.text;
                out.emplace_back(std::move(a));
            },
        },
        e);
}

void EventMapper::on_switch(const SwitchEv& e, model::Nanos ts, std::vector<model::Event>& out) {
    if (!activity_key_) return;
    const std::int32_t shown = e.next_tid > 0 ? e.next_tid : -1;
    if (const auto it = shown_tid_.find(e.cpu); it != shown_tid_.end() && it->second == shown) {
        ++stats_[PerfStat::RepeatedSwitches];
        return;
    }
    shown_tid_[e.cpu] = shown;
    ++stats_[PerfStat::SwitchesDrawn];
    std::int32_t tid = -1;
    if (e.next_tid > 0) {
        if (Thread* t = thread(e.next_tid, e.next_pid, e.next_comm, ts, e.cpu, out)) {
            link(e.next_tid, *t, ts, e.cpu, out);
        }
        tid = e.next_tid;
    }
    running_.on_switch(e.cpu, tid > 0, ts);
    out.emplace_back(
        model::ActivitySwitch{ts, e.cpu, *activity_key_, tid > 0 ? 1 : 0, tid, e.wait});
}

void EventMapper::on_fork(const ForkEv& e, model::Nanos ts, std::vector<model::Event>& out) {
    std::string comm;
    if (auto parent = threads_.find(e.ptid); parent != threads_.end()) comm = parent->second.comm;
    if (e.pid != e.ppid && processes_.size() < kMaxProcesses) {
        // A new process starts as a copy of its parent's address space and image.
        const Process* parent = process(e.ppid);
        processes_[e.pid] =
            parent != nullptr ? std::make_unique<Process>(*parent) : std::make_unique<Process>();
    }
    threads_.erase(e.tid);  // a reused tid starts afresh
    Thread* t = thread(e.tid, e.pid, comm, ts, e.cpu, out);
    if (t == nullptr) return;
    const Process* p = process(e.pid);
    out.emplace_back(
        model::ProcComm{ts, e.cpu, e.pid, e.tid, p != nullptr ? p->image : "", t->comm});
    link(e.tid, *t, ts, e.cpu, out);
}

void EventMapper::on_exit(const ExitEv& e, model::Nanos ts, std::vector<model::Event>& out) {
    out.emplace_back(model::TaskExit{ts, e.tid});
    threads_.erase(e.tid);
    if (e.tid == e.pid) processes_.erase(e.pid);
}

void EventMapper::on_comm(const CommEv& e, model::Nanos ts, std::vector<model::Event>& out) {
    if (e.exec) {
        if (Process* p = process(e.pid)) {
            p->space.clear();  // the new image's mappings follow as MMAP2 records
            p->awaiting_image = true;
        }
        if (auto it = threads_.find(e.tid); it != threads_.end()) it->second.linked = false;
        thread(e.tid, e.pid, e.comm, ts, e.cpu, out);
        return;  // the Proc frame follows once the new image is mapped
    }
    const std::string before = threads_.count(e.tid) != 0 ? threads_[e.tid].comm : "";
    Thread* t = thread(e.tid, e.pid, e.comm, ts, e.cpu, out);
    if (t == nullptr || t->comm == before) return;
    // A rename (prctl, pthread_setname_np): the Proc frame says it too.
    const Process* p = process(e.pid);
    out.emplace_back(
        model::ProcComm{ts, e.cpu, e.pid, e.tid, p != nullptr ? p->image : "", t->comm});
}

void EventMapper::on_mmap(const MmapEv& e, model::Nanos ts, std::vector<model::Event>& out) {
    Process* p = process(e.pid);
    if (p == nullptr) return;
    if (p->awaiting_image && !e.filename.empty() && e.filename.front() == '/') {
        // exec maps the new executable before anything else (then its interpreter).
        p->image = e.filename;
        p->awaiting_image = false;
        if (auto it = threads_.find(e.pid); it != threads_.end()) {
            out.emplace_back(model::ProcComm{ts, e.cpu, e.pid, e.pid, p->image, it->second.comm});
            link(e.pid, it->second, ts, e.cpu, out);
        }
    }
    if (!e.executable) return;
    p->space.map(e.start, e.len, e.pgoff, cookies_.cookie(e.filename));
}

void EventMapper::on_sample(const SampleEv& e, model::Nanos ts, std::vector<model::Event>& out) {
    ++stats_[PerfStat::Backtraces];
    model::Backtrace bt{ts, e.cpu, exec_cookie(e.pid, ts, e.cpu, out), e.pid, e.tid, {}};
    const Process* p = process(e.pid);
    const auto frame = [&](bool kernel, std::uint64_t ip) {
        if (kernel) return model::StackFrame{kKernelCookie, static_cast<std::int64_t>(ip)};
        if (p != nullptr) {
            if (auto f = p->space.resolve(ip)) {
                cookies_.announce(f->cookie, ts, e.cpu, out);
                return *f;
            }
        }
        ++stats_[PerfStat::FramesUnresolved];
        return model::StackFrame{kUnknownCookie, static_cast<std::int64_t>(ip)};
    };
    bool kernel = e.kernel;
    bool usable = true;  // false inside hypervisor/guest contexts
    for (std::uint64_t ip : e.callchain) {
        if (ip >= kContextMax) {
            kernel = ip == kContextKernel;
            usable = kernel || ip == kContextUser;
            continue;
        }
        if (usable) bt.frames.push_back(frame(kernel, ip));
    }
    if (bt.frames.empty()) bt.frames.push_back(frame(e.kernel, e.ip));
    out.emplace_back(std::move(bt));
}

}  // namespace apcgate::collectors::perf
