#include "daemon/analysis/timeline_accounting.hpp"

#include <algorithm>

namespace apcgate::daemon::analysis {

namespace {

std::size_t wait_index(model::WaitState w) {
    const auto i = static_cast<std::size_t>(w);
    return i < kWaitStateNames.size() ? i : 0;
}

std::string basename_of(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

void TimelineAccounting::switch_to(std::int64_t ts, std::int32_t key, std::int32_t core,
                                   std::int32_t tid, model::WaitState wait) {
    ++switches_;
    Running& run = cores_[{key, core}];
    if (run.tid > 0) {
        Thread& prev = thread(run.tid);
        const std::int64_t d = std::max<std::int64_t>(0, ts - run.since);
        prev.cpu_ns += d;
        prev.by_core[core] += d;
        if (run.tid != tid) prev.waiting = std::make_pair(wait, ts);
    }
    if (tid > 0) {
        Thread& next = thread(tid);
        if (next.waiting) {
            next.wait_ns[wait_index(next.waiting->first)] +=
                std::max<std::int64_t>(0, ts - next.waiting->second);
            next.waiting.reset();
        }
    }
    run = Running{tid, ts};
}

void TimelineAccounting::thread_exit(std::int64_t /*ts*/, std::int32_t tid) {
    auto it = threads_.find(tid);
    if (it != threads_.end()) it->second.waiting.reset();
}

void TimelineAccounting::name_thread(std::int32_t tid, const std::string& name,
                                     bool from_thread_name) {
    Thread& t = thread(tid);
    if (from_thread_name || !t.named_by_thread_name) t.name = name;
    t.named_by_thread_name = t.named_by_thread_name || from_thread_name;
}

void TimelineAccounting::process_of(std::int32_t tid, std::int32_t pid) {
    if (tid <= 0 || pid <= 0) return;
    thread(tid).pid = pid;
}

void TimelineAccounting::process_image(std::int32_t pid, const std::string& image) {
    if (pid > 0 && !image.empty()) images_[pid] = image;
}

void TimelineAccounting::sample(std::int32_t pid, std::int32_t tid) {
    if (tid <= 0) return;
    Thread& t = thread(tid);
    if (pid > 0) t.pid = pid;
    ++t.samples;
}

void TimelineAccounting::finish(std::int64_t end_ts) {
    for (auto& [where, run] : cores_) {
        if (run.tid <= 0) continue;
        Thread& t = thread(run.tid);
        const std::int64_t d = std::max<std::int64_t>(0, end_ts - run.since);
        t.cpu_ns += d;
        t.by_core[where.second] += d;
        run = Running{0, end_ts};
    }
    for (auto& [tid, t] : threads_) {
        if (!t.waiting) continue;
        t.wait_ns[wait_index(t.waiting->first)] +=
            std::max<std::int64_t>(0, end_ts - t.waiting->second);
        t.waiting.reset();
    }
}

void TimelineAccounting::fill(Report& r) const {
    std::map<std::int32_t, ProcessRow> processes;
    for (const auto& [tid, t] : threads_) {
        if (t.cpu_ns == 0 && t.samples == 0) continue;  // named, never seen running
        ThreadRow row;
        row.tid = tid;
        row.pid = t.pid;
        row.name = t.name;
        row.cpu_ns = t.cpu_ns;
        row.cpu_ns_by_core.assign(t.by_core.begin(), t.by_core.end());
        row.wait_ns = t.wait_ns;
        row.samples = t.samples;
        r.threads.push_back(std::move(row));
    }
    // A process is named after its main thread, else its executable.
    for (auto& row : r.threads) {
        const std::int32_t pid = row.pid > 0 ? row.pid : -1;
        ProcessRow& p = processes[pid];
        p.pid = pid;
        p.cpu_ns += row.cpu_ns;
        p.samples += row.samples;
        ++p.threads;
    }
    for (auto& [pid, p] : processes) {
        if (pid <= 0) {
            p.name = "(no process)";
            continue;
        }
        if (auto it = threads_.find(pid); it != threads_.end() && !it->second.name.empty()) {
            p.name = it->second.name;
        } else if (auto im = images_.find(pid); im != images_.end()) {
            p.name = basename_of(im->second);
        }
        r.processes.push_back(p);
    }
    if (auto none = processes.find(-1); none != processes.end())
        r.processes.push_back(none->second);
    for (auto& row : r.threads) {
        if (row.pid > 0) row.process = processes[row.pid].name;
    }
    std::sort(r.threads.begin(), r.threads.end(), [](const ThreadRow& a, const ThreadRow& b) {
        if (a.cpu_ns != b.cpu_ns) return a.cpu_ns > b.cpu_ns;
        if (a.samples != b.samples) return a.samples > b.samples;
        return a.tid < b.tid;
    });
    std::sort(r.processes.begin(), r.processes.end(), [](const ProcessRow& a, const ProcessRow& b) {
        if (a.cpu_ns != b.cpu_ns) return a.cpu_ns > b.cpu_ns;
        if (a.samples != b.samples) return a.samples > b.samples;
        return a.pid < b.pid;
    });
}

}  // namespace apcgate::daemon::analysis
