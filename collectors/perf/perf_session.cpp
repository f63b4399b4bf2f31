#include "collectors/perf/perf_session.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "collectors/perf/event_attrs.hpp"

namespace apcgate::collectors::perf {

int PerfSession::open_one(const EventOpener& opener, perf_event_attr attr, pid_t pid, int cpu,
                          int group_fd, const std::string& what,
                          std::vector<std::string>& warnings) {
    const int fd = opener(attr, pid, cpu, group_fd, 0);
    if (fd < 0) {
        warnings.push_back(
            open_failure(what + (pid > 0 ? " for tid " + std::to_string(pid) : ""), cpu, fd));
        return -1;
    }
    fds_.emplace_back(fd);
    return fd;
}

namespace {

// The locked-memory limit may not allow the size asked for: halve until it fits.
Result<PerfRing> map_ring(int fd, std::size_t bytes) {
    Result<PerfRing> ring = PerfRing::map(fd, bytes);
    for (std::size_t b = bytes / 2; !ring && b >= 8192; b /= 2) ring = PerfRing::map(fd, b);
    return ring;
}

}  // namespace

// What open() carries from one event to the next while it opens the events of one CPU.
struct PerfSession::Opening {
    const SessionPlan& plan;
    const EventOpener& opener;
    LayoutTable& layouts;
    RecordNormalizer& normalizer;
    std::vector<std::string>& warnings;
    AttrCommon per_task;
    AttrCommon cpu_wide;  // idle belongs to the CPU, not to a task
    int cpu = 0;
    int owner = -1;  // the fd whose ring the CPU's events write into, once one is mapped
};

Result<std::unique_ptr<PerfSession>> PerfSession::open(const SessionPlan& plan,
                                                       const EventOpener& opener,
                                                       LayoutTable& layouts,
                                                       RecordNormalizer& normalizer,
                                                       std::vector<std::string>& warnings) {
    std::unique_ptr<PerfSession> s(new PerfSession());
    s->scale_ = plan.scale;
    s->release_ = plan.tracepoint_release;
    const bool follow = !(plan.targets.size() == 1 && plan.targets.front() == -1);
    Opening o{plan, opener, layouts, normalizer, warnings, {}, {}, 0, -1};
    o.per_task.kernel = plan.kernel;
    o.per_task.inherit = follow;
    o.per_task.enable_on_exec = plan.enable_on_exec;
    o.cpu_wide = o.per_task;
    o.cpu_wide.inherit = false;
    o.cpu_wide.enable_on_exec = false;

    for (const int cpu : plan.cpus) {
        o.cpu = cpu;
        o.owner = -1;
        for (const pid_t target : plan.targets) s->open_target(o, target);
        if (plan.cpu_idle_id && o.owner >= 0)
            s->open_writer(o, tracepoint_attr(o.cpu_wide, *plan.cpu_idle_id), -1,
                           EventRole::CpuIdle, "power:cpu_idle");
    }
    if (s->rings_.empty())
        return Error::at(ErrorKind::Io,
                         warnings.empty() ? "no perf ring could be opened" : warnings.front());
    return s;
}

// Opens one event that writes records, mapping the ring or sending it to the owner's; its fd,
// or -1.
int PerfSession::open_writer(Opening& o, const perf_event_attr& attr, pid_t pid, EventRole role,
                             const std::string& what) {
    const int fd = open_one(o.opener, attr, pid, o.cpu, -1, what, o.warnings);
    if (fd < 0) return -1;
    if (o.owner < 0) {
        Result<PerfRing> ring = map_ring(fd, o.plan.ring_bytes);
        if (!ring) {
            o.warnings.push_back("cpu " + std::to_string(o.cpu) + ": " + ring.error().message);
            return -1;
        }
        o.owner = fd;
        rings_.push_back(
            Ring{o.cpu, fd, std::move(ring).value(), "perf ring cpu " + std::to_string(o.cpu)});
    } else if (::ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, o.owner) != 0) {
        o.warnings.push_back(what + " on cpu " + std::to_string(o.cpu) +
                             ": cannot share the ring: " + std::strerror(errno));
        return -1;
    }
    std::uint64_t id = 0;
    if (::ioctl(fd, PERF_EVENT_IOC_ID, &id) != 0) {
        o.warnings.push_back(what + ": PERF_EVENT_IOC_ID failed: " + std::strerror(errno));
        return -1;
    }
    o.layouts.add(id, attr.sample_type);
    o.normalizer.set_role(id, role);
    if (attr.type == PERF_TYPE_TRACEPOINT) tracepoint_of_[fd] = attr.config;
    return fd;
}

PerfSession::~PerfSession() {
    rings_.clear();
    close_events(fds_, tracepoint_of_, release_);
}

// Every event of one target (a followed thread, or -1: every task) on the current CPU.
void PerfSession::open_target(Opening& o, pid_t target) {
    const SessionPlan& plan = o.plan;
    const AttrCommon& ac = o.per_task;
    // Without its side-band the target is gone (or has no ring): nothing else for it.
    // Wake the reader every quarter ring, at most every 512 KiB: small batches.
    const std::size_t wakeup = std::min<std::size_t>(plan.ring_bytes / 4, 512u << 10);
    if (open_writer(o, sideband_attr(ac, plan.context_switch, wakeup), target, EventRole::Sideband,
                    "side-band") < 0)
        return;
    if (plan.sched_switch_id) {
        const int fd = open_writer(o, tracepoint_attr(ac, *plan.sched_switch_id), target,
                                   EventRole::SchedSwitch, "sched:sched_switch");
        // Unfiltered it still reports every switch right, at more cost per switch.
        if (fd >= 0 && !plan.sched_switch_filter.empty() &&
            ::ioctl(fd, PERF_EVENT_IOC_SET_FILTER, plan.sched_switch_filter.c_str()) != 0)
            o.warnings.push_back("sched:sched_switch on cpu " + std::to_string(o.cpu) +
                                 ": filter \"" + plan.sched_switch_filter + "\" not taken (" +
                                 std::strerror(errno) + "): it samples every switch");
    }
    if (plan.sample_hz > 0)
        open_writer(o, clock_sampler_attr(ac, plan.sample_hz, plan.callchain), target,
                    EventRole::ClockSampler, "cpu-clock sampling");
    for (const auto& smp : plan.samplers)
        open_writer(o, event_sampler_attr(ac, smp.type, smp.config, smp.period, plan.callchain),
                    target, EventRole::PmuSampler, smp.name + " sampling");
    open_counters(o, target);
}

// The plan's counters for one target on the current CPU, one perf group per plan group.
void PerfSession::open_counters(Opening& o, pid_t target) {
    std::map<int, Group> groups;
    for (const auto& c : o.plan.counters) {
        Group& g = groups[c.group];
        const int fd = open_one(o.opener, counter_attr(o.per_task, c.type, c.config), target, o.cpu,
                                g.leader, c.name, o.warnings);
        if (fd < 0) continue;
        if (g.leader < 0) {
            g.leader = fd;
            g.cpu = o.cpu;
        }
        g.keys.push_back(c.key);
    }
    for (auto& [index, g] : groups)
        if (g.leader >= 0) groups_.push_back(std::move(g));
}

Status PerfSession::enable() {
    for (const PerfFd& fd : fds_)
        if (::ioctl(fd.get(), PERF_EVENT_IOC_ENABLE, 0) != 0)
            return Error::at(ErrorKind::Io,
                             std::string("PERF_EVENT_IOC_ENABLE: ") + std::strerror(errno));
    return {};
}

void PerfSession::disable() {
    for (const PerfFd& fd : fds_) ::ioctl(fd.get(), PERF_EVENT_IOC_DISABLE, 0);
}

void PerfSession::read_counters(std::vector<CounterTotal>& out) {
    std::map<std::pair<int, model::CounterKey>, double> totals;
    for (const Group& g : groups_) {
        // {nr, time_enabled, time_running, value[nr]}
        read_buf_.assign(3 + g.keys.size(), 0);
        const ssize_t n = ::read(g.leader, read_buf_.data(), read_buf_.size() * 8);
        if (n < 24) continue;
        const std::uint64_t nr = std::min<std::uint64_t>(read_buf_[0], g.keys.size());
        const std::uint64_t enabled = read_buf_[1], running = read_buf_[2];
        // A multiplexed group counted only part of the time: scale up to the whole time.
        const double scale = !scale_ || running >= enabled ? 1.0
                             : running == 0
                                 ? 0.0
                                 : static_cast<double>(enabled) / static_cast<double>(running);
        for (std::uint64_t i = 0; i < nr && (4 + i) * 8 <= static_cast<std::uint64_t>(n); ++i)
            totals[{g.cpu, g.keys[i]}] += static_cast<double>(read_buf_[3 + i]) * scale;
    }
    for (const auto& [k, v] : totals) out.push_back(CounterTotal{k.first, k.second, v});
}

}  // namespace apcgate::collectors::perf
