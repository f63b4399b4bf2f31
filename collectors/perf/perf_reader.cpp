#include "collectors/perf/perf_reader.hpp"

#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>

#include "collectors/perf/record_tokenizer.hpp"
#include "protocol/model/timeline_clock.hpp"

namespace apcgate::collectors::perf {
namespace {

std::int64_t monotonic_now() {
    return model::timeline_clock_ns();
}

int to_ms(std::int64_t ns) {
    if (ns <= 0) return 0;
    return static_cast<int>(std::min<std::int64_t>((ns + 999'999) / 1'000'000, 60'000));
}

}  // namespace

PerfReader::PerfReader(PerfSession& session, const LayoutTable& layouts,
                       RecordNormalizer& normalizer, EventMapper& mapper,
                       ingest::IngestReport& report, ReaderConfig config)
    : session_(session),
      parser_(layouts),
      normalizer_(normalizer),
      mapper_(mapper),
      report_(report),
      config_(std::move(config)) {}

PerfReader::~PerfReader() {
    stop();
}

Status PerfReader::start() {
    stop_fd_.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    epoll_fd_.reset(::epoll_create1(EPOLL_CLOEXEC));
    if (!stop_fd_.valid() || !epoll_fd_.valid())
        return Error::at(ErrorKind::Io, std::string("eventfd/epoll: ") + std::strerror(errno));
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = stop_fd_.get();
    if (::epoll_ctl(epoll_fd_.get(), EPOLL_CTL_ADD, stop_fd_.get(), &ev) != 0)
        return Error::at(ErrorKind::Io, std::string("epoll_ctl: ") + std::strerror(errno));
    for (const auto& ring : session_.rings()) {
        ev.data.fd = ring.fd;
        if (::epoll_ctl(epoll_fd_.get(), EPOLL_CTL_ADD, ring.fd, &ev) != 0)
            return Error::at(ErrorKind::Io, std::string("epoll_ctl: ") + std::strerror(errno));
    }
    next_counters_ = monotonic_now() + config_.counter_period;
    thread_ = std::thread([this] { run(); });
    return {};
}

void PerfReader::stop() {
    if (!thread_.joinable()) return;
    const std::uint64_t one = 1;
    if (::write(stop_fd_.get(), &one, sizeof one) < 0) {
        // The eventfd counter cannot overflow with one write; nothing else can fail here.
    }
    thread_.join();
}

void PerfReader::run() {
    // Rings fill while this thread waits for a CPU: ahead of ordinary work when allowed to be
    // (CAP_SYS_NICE); otherwise the kernel says what was lost.
    ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), -10);
    epoll_event events[16];
    for (;;) {
        std::int64_t now = monotonic_now();
        std::int64_t wait = config_.drain_period;
        if (config_.counter_period > 0) wait = std::min(wait, next_counters_ - now);
        if (backlog_) wait = 0;
        const int n = ::epoll_wait(epoll_fd_.get(), events, 16, to_ms(wait));
        bool stopping = false;
        for (int i = 0; i < n; ++i) {
            const int fd = events[i].data.fd;
            if (fd == stop_fd_.get()) {
                stopping = true;
            } else if ((events[i].events & (EPOLLHUP | EPOLLERR)) != 0) {
                // The task a ring follows has exited: it stays readable (this drain and the
                // last one read what is left) but would report HUP at every wait from now on.
                ::epoll_ctl(epoll_fd_.get(), EPOLL_CTL_DEL, fd, nullptr);
                ++stats_[PerfStat::RingsClosed];
            }
        }
        if (stopping) return;
        if (!seeded_ && pending_.size() >= kUnseededRecords && !seed_arrived()) {
            // Nothing is mapped before /proc has been read (seed()): past this many records the
            // rest wait in the rings, kernel memory, rather than here.
            ++stats_[PerfStat::DrainsDeferred];
            pollfd p{stop_fd_.get(), POLLIN, 0};
            if (::poll(&p, 1, 5) > 0) return;
            continue;
        }
        if (queued_.load(std::memory_order_relaxed) >= config_.queue_cap) {
            // poll() fell behind: leave the rings to fill (the kernel counts what it drops)
            // and wait for the stop fd only, so ring wake-ups cannot spin this loop.
            ++stats_[PerfStat::DrainsDeferred];
            pollfd p{stop_fd_.get(), POLLIN, 0};
            if (::poll(&p, 1, 10) > 0) return;
            continue;
        }
        drain(monotonic_now(), false);
    }
}

PerfReader::RingDrain PerfReader::drain_ring(PerfSession::Ring& ring, bool whole) {
    // Chunk by chunk, so the copy stays small however full the ring is. The last drain takes as
    // many chunks as the ring held when it began (a ring filling as fast as it is read cannot
    // hold the end up); the others one.
    const std::size_t chunks = whole ? ring.ring.data_bytes() / config_.chunk_bytes + 1 : 1;
    const std::size_t first = pending_.size();
    bool more = false;
    for (std::size_t i = 0; i < chunks; ++i) {
        buf_.clear();
        auto drained = ring.ring.drain(buf_, config_.chunk_bytes);
        if (!drained) {
            Error e = std::move(drained).take_error();
            e.input = ring.name;
            report_.bad_record(std::move(e));
            break;
        }
        stats_[PerfStat::RecordBytes] += drained->bytes;
        RecordTokenizer tokens(buf_, drained->position);
        while (auto raw = tokens.next()) {
            auto rec = parser_.parse(*raw, ring.name);
            if (!rec) {
                report_.bad_record(std::move(rec).take_error());
                continue;
            }
            normalizer_.add(std::move(rec).value(), raw->offset + kHeaderBytes, ring.name,
                            pending_);
        }
        if (tokens.error()) {
            Error e = *tokens.error();
            e.context.push_back("the rest of this drain of " + ring.name + " was skipped");
            report_.bad_record(std::move(e));
        }
        more = drained->more;
        if (!more) break;
    }
    RingDrain d{0, more};
    for (std::size_t i = first; i < pending_.size(); ++i)
        d.newest = std::max(d.newest, time_of(pending_[i]));
    return d;
}

void PerfReader::read_counters(std::int64_t now) {
    ++stats_[PerfStat::CounterReads];
    totals_.clear();
    session_.read_counters(totals_);
    for (const CounterTotal& t : totals_) {
        const auto total = static_cast<std::int64_t>(std::llround(t.value));
        std::int64_t& prev = previous_[{t.cpu, t.key}];
        pending_.emplace_back(CounterEv{static_cast<std::uint64_t>(now), t.cpu, t.key,
                                        std::max<std::int64_t>(0, total - prev)});
        prev = std::max(prev, total);
    }
    auto lost = normalizer_.take_lost();
    auto repaired = normalizer_.take_repaired_switches();
    for (const auto& ring : session_.rings()) {
        pending_.emplace_back(ActivityTickEv{static_cast<std::uint64_t>(now), ring.cpu});
        if (config_.repaired_switches_key) {
            const auto r = repaired.find(ring.cpu);
            pending_.emplace_back(
                CounterEv{static_cast<std::uint64_t>(now), ring.cpu, *config_.repaired_switches_key,
                          static_cast<std::int64_t>(r != repaired.end() ? r->second : 0)});
        }
        const std::uint64_t n = lost.count(ring.cpu) != 0 ? lost[ring.cpu] : 0;
        if (config_.lost_key)
            pending_.emplace_back(CounterEv{static_cast<std::uint64_t>(now), ring.cpu,
                                            *config_.lost_key, static_cast<std::int64_t>(n)});
        if (n == 0) continue;
        std::string text = "apcgate: the kernel dropped " + std::to_string(n) +
                           " perf records on CPU " + std::to_string(ring.cpu) +
                           " (ring buffer full)";
        log(LogLevel::Warn, text);
        pending_.emplace_back(NoteEv{static_cast<std::uint64_t>(now), std::move(text)});
    }
}

void PerfReader::drain(std::int64_t now, bool final) {
    ++stats_[PerfStat::Drains];
    // A ring with records left caps what may be mapped at the newest time read from it: its
    // records still to come are no older (but for the lateness the margin allows for).
    // While one ring is behind, the rings already read beyond it wait: their records could not
    // be mapped before it catches up, and would pile up here rather than in the kernel's rings.
    auto& rings = session_.rings();
    read_to_.resize(rings.size(), 0);
    left_.resize(rings.size(), false);
    std::optional<std::uint64_t> left_from;  // what may be mapped is capped by it, less margin
    for (std::size_t i = 0; i < rings.size(); ++i) {
        if (!final && backlog_ && read_to_[i] > *backlog_) {
            ++stats_[PerfStat::RingsSkipped];  // what it holds unread is no older than read_to_
        } else {
            const RingDrain d = drain_ring(rings[i], final);
            read_to_[i] = std::max(read_to_[i], d.newest);
            left_[i] = d.more;
            if (!d.more) continue;
        }
        left_from = std::min(left_from.value_or(read_to_[i]), read_to_[i]);
    }
    stats_[PerfStat::HeldPeak] = std::max<std::uint64_t>(
        stats_[PerfStat::HeldPeak], pending_.size() + queued_.load(std::memory_order_relaxed));
    // The ring furthest behind is never skipped, so each drain moves it on.
    backlog_.reset();
    for (std::size_t i = 0; i < rings.size(); ++i)
        if (left_[i]) backlog_ = std::min(backlog_.value_or(read_to_[i]), read_to_[i]);
    if (final || (config_.counter_period > 0 && now >= next_counters_)) {
        read_counters(now);
        if (config_.counter_period > 0)
            while (next_counters_ <= now) next_counters_ += config_.counter_period;
    }
    produced_.clear();
    if (!seeded_) {
        std::optional<ProcSeed> seed;
        {
            std::lock_guard lock(mutex_);
            seed.swap(seed_);
        }
        if (!seed && !final) return;  // hold everything until /proc has been read
        if (seed) {
            for (auto& p : seed->processes) mapper_.seed_process(p.pid, std::move(p.image), p.maps);
            for (auto& t : seed->threads) mapper_.seed_thread(t.tid, t.pid, std::move(t.comm));
            if (seed->name_threads) mapper_.name_seeded(produced_);
        }
        seeded_ = true;
    }
    // Sort keys, not the events: ties keep arrival order (ring by ring, record by record).
    order_.clear();
    for (std::size_t i = 0; i < pending_.size(); ++i) order_.emplace_back(time_of(pending_[i]), i);
    std::sort(order_.begin(), order_.end());
    std::uint64_t limit =
        final ? std::numeric_limits<std::uint64_t>::max()
              : static_cast<std::uint64_t>(std::max<std::int64_t>(0, now - config_.margin));
    if (left_from) {
        const auto margin = static_cast<std::uint64_t>(config_.margin);
        limit = std::min(limit, *left_from > margin ? *left_from - margin : 0);
    }
    held_.clear();
    for (const auto& [time, index] : order_) {
        if (time > limit) {  // too recent: a record older than it may still be on its way
            held_.push_back(std::move(pending_[index]));
            continue;
        }
        model::Nanos ts = static_cast<model::Nanos>(time) - config_.zero_monotonic_ns;
        if (ts < mapped_to_) {
            if (ts < mapped_to_ - 1'000'000) ++stats_[PerfStat::LateRecords];
            ts = mapped_to_;  // never step back on the timeline
        }
        mapped_to_ = ts;
        mapper_.map(pending_[index], ts, produced_);
        // Hand over in batches: a drain after a stall (or the first, held for /proc) can map
        // a hundred thousand events, and one vector of them all would keep that peak's memory.
        // The watermark stays: take() bounds it by the oldest queued event anyway.
        if (produced_.size() >= kHandOverBatch) hand_over(std::nullopt);
    }
    pending_.swap(held_);
    const model::Nanos watermark =
        final ? std::numeric_limits<model::Nanos>::max()
              : std::max(mapped_to_, static_cast<model::Nanos>(limit) - config_.zero_monotonic_ns);
    mapped_to_ = std::max(mapped_to_, final ? mapped_to_ : watermark);
    hand_over(final ? mapped_to_ : watermark);
}

void PerfReader::hand_over(std::optional<model::Nanos> watermark) {
    std::lock_guard lock(mutex_);
    queue_.push(produced_);
    queued_.store(queue_.size(), std::memory_order_relaxed);
    stats_[PerfStat::HeldPeak] = std::max<std::uint64_t>(stats_[PerfStat::HeldPeak], queue_.size());
    if (watermark) watermark_ = std::max(watermark_, *watermark);
}

bool PerfReader::seed_arrived() {
    std::lock_guard lock(mutex_);
    return seed_.has_value();
}

void PerfReader::seed(ProcSeed seed) {
    std::lock_guard lock(mutex_);
    seed_ = std::move(seed);
}

model::Nanos PerfReader::take(std::vector<model::Event>& out, std::size_t max) {
    std::lock_guard lock(mutex_);
    queue_.take(out, max);
    queued_.store(queue_.size(), std::memory_order_relaxed);
    // What is still queued is no older than its first event.
    return queue_.empty() ? watermark_ : std::min(watermark_, model::timestamp_of(queue_.front()));
}

void PerfReader::finish(std::vector<model::Event>& out) {
    stop();
    drain(monotonic_now(), true);
    std::lock_guard lock(mutex_);
    queue_.take_all(out);
    queued_.store(0, std::memory_order_relaxed);
}

}  // namespace apcgate::collectors::perf
