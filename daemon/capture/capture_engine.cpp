#include "daemon/capture/capture_engine.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "protocol/model/span_run_pool.hpp"

namespace apcgate::daemon {

namespace {
model::Nanos live_period(const model::CaptureSettings& s) {
    const int ms = s.live_rate_ms > 0 ? s.live_rate_ms : 100;
    return static_cast<model::Nanos>(ms) * 1'000'000;
}
}  // namespace

CaptureEngine::CaptureEngine(CapturePlan plan, CaptureSink& sink)
    : plan_(std::move(plan)),
      sink_(sink),
      encoder_(plan_.counters, sink_, plan_.encoder),
      merger_(plan_.sources.size()),
      annotation_ids_(plan_.sources.size()),
      event_rate_(plan_.counters),
      flush_period_(live_period(plan_.settings)) {}

Status CaptureEngine::start() {
    for (std::size_t i = 0; i < plan_.sources.size(); ++i) {
        collectors::Source* s = plan_.sources[i];
        const std::int64_t zero =
            i < plan_.source_zero_ns.size() ? plan_.source_zero_ns[i] : plan_.zero_monotonic_ns;
        const collectors::CaptureContext ctx{plan_.settings, plan_.counters, zero};
        Status st = s->start(ctx);
        // The period may depend on the settings, so ask only once the source has started.
        Running r{s, s->poll_period() > 0 ? s->poll_period() : flush_period_, s->recorded()};
        if (!st) {
            failed_.push_back(std::string(s->name()) + ": " + st.error().to_string());
            spdlog::warn("source {} did not start: {}", s->name(), st.error().to_string());
            r.finished = true;
            merger_.push(i, scratch_, 0, true);
        }
        running_.push_back(r);
    }
    if (!plan_.sources.empty() && failed_.size() == plan_.sources.size())
        return Error::at(ErrorKind::Io, "no source could start: " + failed_.front());
    encoder_.summary(plan_.summary, plan_.cores);
    return {};
}

void CaptureEngine::poll_one(std::size_t index, model::Nanos now) {
    Running& r = running_[index];
    const collectors::PollResult res = r.source->poll(now, scratch_);
    count(scratch_);
    r.finished = res.finished;
    r.watermark = res.watermark;
    r.next_due = now + r.period;
    push(index, res.watermark, res.finished);
}

void CaptureEngine::push(std::size_t index, model::Nanos watermark, bool finished) {
    // One source's ids are the capture's as they are (and its span runs are not walked).
    if (plan_.sources.size() > 1) annotation_ids_.remap(index, scratch_);
    merger_.push(index, scratch_, watermark, finished);
}

void CaptureEngine::encode(model::Event& e) {
    if (auto* run = std::get_if<model::SampleRun>(&e)) {
        // Encoded in parts, so that each rate sample follows the sample that completed its
        // millisecond, as it follows the single event that does.
        while (!run->empty()) {
            const std::size_t n = event_rate_.observe(*run, run->first, rate_samples_);
            encoder_.add(*run, n);
            run->advance(n);
            for (auto& s : rate_samples_) encoder_.add(s);
            rate_samples_.clear();
        }
        return;
    }
    event_rate_.observe(e, rate_samples_);
    encoder_.add(e);
    for (auto& s : rate_samples_) encoder_.add(s);
    rate_samples_.clear();
    // Encoded whole: its buffers may serve the next run a source makes on this thread.
    if (auto* spans = std::get_if<model::SpanRun>(&e))
        model::span_run_pool::give(std::move(*spans));
}

void CaptureEngine::count(const std::vector<model::Event>& events) {
    for (const auto& e : events) events_ += model::event_count(e);
}

void CaptureEngine::poll_due(model::Nanos now) {
    for (std::size_t i = 0; i < running_.size(); ++i) {
        const Running& r = running_[i];
        if (!r.finished && !r.recorded && r.next_due <= now) poll_one(i, now);
    }
}

void CaptureEngine::poll_behind(model::Nanos now) {
    model::Nanos lowest = collectors::kNever;
    for (const Running& r : running_)
        if (r.recorded && !r.finished) lowest = std::min(lowest, r.watermark);
    for (std::size_t i = 0; i < running_.size(); ++i) {
        const Running& r = running_[i];
        if (r.recorded && !r.finished && r.watermark == lowest) poll_one(i, now);
    }
}

void CaptureEngine::flush(model::Nanos now) {
    (void)now;
    merger_.release([this](model::Event& e) { encode(e); });
    encoder_.flush();
    sink_.flush();
}

void CaptureEngine::encode_ready() {
    merger_.release([this](model::Event& e) { encode(e); });
    if (encoder_.stats().counts[apc::EncoderStat::Bytes] - open_frames_sent_at_ >=
        kSendOpenFrames) {
        encoder_.flush();
        sink_.flush();
        open_frames_sent_at_ = encoder_.stats().counts[apc::EncoderStat::Bytes];
    }
}

void CaptureEngine::finish(model::Nanos now) {
    if (finished_) return;
    finished_ = true;
    for (std::size_t i = 0; i < running_.size(); ++i) {
        Running& r = running_[i];
        if (r.finished) continue;
        // Poll once more so the last interval is sampled, then let the source close out.
        poll_one(i, now);
        r.source->stop(now, scratch_);
        count(scratch_);
        push(i, now, true);
        r.finished = true;
    }
    merger_.release([this](model::Event& e) { encode(e); }, true);
    event_rate_.finish(rate_samples_);
    for (auto& s : rate_samples_) encoder_.add(s);
    rate_samples_.clear();
    encoder_.flush();
    sink_.flush();
    sink_.finish();
}

model::Nanos CaptureEngine::next_poll() const {
    model::Nanos next = collectors::kNever;
    for (const auto& r : running_)
        if (!r.finished && !r.recorded) next = std::min(next, r.next_due);
    return next;
}

bool CaptureEngine::recorded_running() const {
    return std::any_of(running_.begin(), running_.end(),
                       [](const Running& r) { return r.recorded && !r.finished; });
}

bool CaptureEngine::sources_finished() const {
    return std::all_of(running_.begin(), running_.end(),
                       [](const Running& r) { return r.finished; });
}

bool CaptureEngine::buffer_full() const {
    const std::uint64_t limit = model::buffer_mode_bytes(plan_.settings.buffer_mode);
    return limit != 0 && sink_.bytes_written() >= limit;
}

CaptureTotals CaptureEngine::totals() const {
    return {events_, encoder_.stats().counts[apc::EncoderStat::Frames], sink_.bytes_written(),
            failed_};
}

std::vector<StatisticsOf> CaptureEngine::statistics() const {
    std::vector<StatisticsOf> out = sources_statistics(plan_.sources);
    out.push_back({"encoder", encoder_.stats().counts.values()});
    return out;
}

}  // namespace apcgate::daemon
