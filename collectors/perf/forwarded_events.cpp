#include "collectors/perf/forwarded_events.hpp"

#include <sys/ioctl.h>

#include <cerrno>
#include <cstring>

#include "protocol/model/timeline_clock.hpp"

namespace apcgate::collectors::perf {

namespace {

constexpr std::uint64_t kGroupRead = PERF_FORMAT_ID | PERF_FORMAT_GROUP |
                                     PERF_FORMAT_TOTAL_TIME_ENABLED |
                                     PERF_FORMAT_TOTAL_TIME_RUNNING;

perf_event_attr common(std::uint32_t type, std::uint64_t config, bool kernel) {
    perf_event_attr a;
    std::memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    a.exclude_kernel = kernel ? 0 : 1;
    a.exclude_callchain_kernel = kernel ? 0 : 1;
    a.exclude_hv = 1;
    a.use_clockid = 1;
    a.clockid = model::kTimelineClock;
    a.sample_id_all = 1;
    return a;
}

}  // namespace

bool follows(const SessionPlan& plan) {
    return !(plan.targets.size() == 1 && plan.targets.front() == -1);
}

std::vector<KeyedAttr> forwarded_attrs(const SessionPlan& plan) {
    std::vector<KeyedAttr> out;
    const bool follow = follows(plan);
    // Following tasks, the tracepoint would only see the followed tasks switch out (gatord
    // leaves it out of its application mode for that reason): the side-band's switch records
    // say when they switch in and out.
    const bool have_switch = plan.sched_switch_id.has_value() && !follow;
    // Following tasks, every event is inherited by their new threads and children (whose
    // records keep the event's id), and the kernel takes a READ of an inherited group only
    // with the sample's task (PERF_SAMPLE_TID) beside it, which a Streamline needs anyway to
    // give each value to its task (gatord samples TID in its application mode for that).
    const auto per_task = [&](perf_event_attr& a) {
        if (!follow) return;
        a.inherit = 1;
        a.sample_type |= PERF_SAMPLE_TID;
        // The command's events start at its exec (record -- CMD holds it at a gate until then).
        if (a.disabled) a.enable_on_exec = plan.enable_on_exec ? 1 : 0;
    };
    {
        perf_event_attr a = common(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, plan.kernel);
        // As gatord's header event: FORK, EXIT, COMM and MMAP2 name their task in their body;
        // only switch records need the task from the sample_id trailer.
        a.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_IDENTIFIER |
                        (have_switch ? 0 : PERF_SAMPLE_TID);
        a.read_format =
            PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
        a.disabled = 1;
        a.pinned = 1;
        a.mmap = 1;
        a.mmap2 = 1;
        a.comm = 1;
        a.comm_exec = 1;
        a.task = 1;
        // MMAP2 records carry the mapped file's build id (where the kernel can read it) in place
        // of its device and inode, as gatord asks for them; open() drops it on kernels before
        // 5.12, which refuse the bit.
        a.build_id = 1;
        a.context_switch = have_switch ? 0 : 1;
        a.watermark = 1;
        // Wake the reader at half the ring, as gatord does: fewer wake-ups, room for a burst.
        a.wakeup_watermark = static_cast<std::uint32_t>(plan.ring_bytes / 2);
        per_task(a);
        out.push_back({kSidebandKey, a, "side-band"});
    }
    if (have_switch) {
        perf_event_attr a = common(PERF_TYPE_TRACEPOINT, *plan.sched_switch_id, true);
        a.sample_period = 1;
        a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD |
                        PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_RAW | PERF_SAMPLE_IDENTIFIER;
        a.read_format = kGroupRead;
        a.disabled = 1;
        a.pinned = 1;
        out.push_back({kSwitchLeaderKey, a, "sched:sched_switch"});
    }
    if (plan.sample_hz > 0 || !have_switch) {
        perf_event_attr a = common(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, plan.kernel);
        const int hz = plan.sample_hz > 0 ? plan.sample_hz : 1000;
        a.sample_period = 1'000'000'000ull / static_cast<unsigned>(hz);
        a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_READ |
                        PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_IDENTIFIER |
                        (plan.callchain ? PERF_SAMPLE_CALLCHAIN : 0);
        a.read_format = kGroupRead;
        if (!have_switch) a.disabled = 1, a.pinned = 1;  // it leads the group
        per_task(a);
        out.push_back({kClockSamplerKey, a, "cpu-clock sampling"});
    }
    for (const auto& c : plan.counters) {
        perf_event_attr a = common(c.type, c.config, plan.kernel);
        a.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD |
                        PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_IDENTIFIER;
        a.read_format = kGroupRead;
        // Tracepoint counters fire in the kernel: excluding it would count nothing.
        if (c.type == PERF_TYPE_TRACEPOINT) a.exclude_kernel = 0;
        per_task(a);
        out.push_back({c.key, a, c.name});
    }
    return out;
}

Result<std::unique_ptr<ForwardedEvents>> ForwardedEvents::open(const SessionPlan& plan,
                                                               const EventOpener& opener,
                                                               std::vector<std::string>& warnings) {
    std::unique_ptr<ForwardedEvents> s(new ForwardedEvents());
    s->attrs_ = forwarded_attrs(plan);
    s->enable_on_exec_ = follows(plan) && plan.enable_on_exec;
    s->release_ = plan.tracepoint_release;
    for (const int cpu : plan.cpus) {
        Cpu c;
        c.cpu = cpu;
        std::vector<int> to_enable;
        // System-wide one target (-1: every task); following, each followed thread. The first
        // side-band that opens owns the CPU's ring; every other event writes into it.
        for (const pid_t target : plan.targets) {
            int leader = -1;
            bool usable = true;
            const std::string whose =
                target > 0 ? " for tid " + std::to_string(target) : std::string();
            for (std::size_t i = 0; i < s->attrs_.size() && usable; ++i) {
                KeyedAttr& ka = s->attrs_[i];
                perf_event_attr attr = ka.attr;
                const bool is_sideband = i == 0;
                const bool is_leader = i == 1;
                int fd = opener(attr, target, cpu, is_sideband || is_leader ? -1 : leader, 0);
                if (fd < 0 && is_sideband && attr.build_id) {
                    attr.build_id = 0;
                    fd = opener(attr, target, cpu, -1, 0);
                    if (fd >= 0) ka.attr.build_id = 0;  // the PEA says what was opened
                }
                if (fd < 0) {
                    warnings.push_back(open_failure(ka.what + whose, cpu, fd));
                    // Without its side-band or group leader the target (a thread that exited
                    // meanwhile, a CPU) has nothing to give.
                    if (is_sideband || is_leader) usable = false;
                    continue;
                }
                s->fds_.emplace_back(fd);
                if (attr.type == PERF_TYPE_TRACEPOINT) s->tracepoint_of_[fd] = attr.config;
                if (is_sideband && c.owner_fd < 0) {
                    Result<PerfRing> ring = PerfRing::map(fd, plan.ring_bytes);
                    for (std::size_t b = plan.ring_bytes / 2; !ring && b >= 8192; b /= 2)
                        ring = PerfRing::map(fd, b);
                    if (!ring) {
                        warnings.push_back("cpu " + std::to_string(cpu) + ": " +
                                           ring.error().message);
                        usable = false;
                        continue;
                    }
                    c.owner_fd = fd;
                    c.ring = std::move(ring).value();
                } else if (::ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, c.owner_fd) != 0) {
                    warnings.push_back(ka.what + whose + " on cpu " + std::to_string(cpu) +
                                       ": cannot share the ring: " + std::strerror(errno));
                    if (is_sideband || is_leader) usable = false;
                    continue;
                }
                if (is_leader) leader = fd;
                std::uint64_t id = 0;
                if (::ioctl(fd, PERF_EVENT_IOC_ID, &id) != 0) {
                    warnings.push_back(ka.what +
                                       ": PERF_EVENT_IOC_ID failed: " + std::strerror(errno));
                    continue;
                }
                c.ids.emplace_back(id, ka.key);
                if (is_sideband || is_leader) to_enable.push_back(fd);
            }
        }
        if (c.owner_fd < 0 || to_enable.empty()) continue;
        s->enable_fds_.insert(s->enable_fds_.end(), to_enable.begin(), to_enable.end());
        s->cpus_.push_back(std::move(c));
    }
    if (s->cpus_.empty())
        return Error::at(ErrorKind::Io,
                         warnings.empty() ? "no perf ring could be opened" : warnings.front());
    return s;
}

ForwardedEvents::~ForwardedEvents() {
    cpus_.clear();
    close_events(fds_, tracepoint_of_, release_);
}

Status ForwardedEvents::enable() {
    if (enable_on_exec_) return {};  // the kernel enables them at the command's exec
    for (const int fd : enable_fds_)
        if (::ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0)
            return Error::at(ErrorKind::Io,
                             std::string("PERF_EVENT_IOC_ENABLE: ") + std::strerror(errno));
    return {};
}

void ForwardedEvents::disable() {
    for (const int fd : enable_fds_) ::ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

}  // namespace apcgate::collectors::perf
