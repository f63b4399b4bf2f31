#include "collectors/annotate/annotate_source.hpp"

#include <algorithm>

namespace apcgate::collectors::annotate {

AnnotateSource::AnnotateSource(AnnotateConfig config, LogFn log)
    : config_(std::move(config)),
      loop_(std::make_unique<IoLoop>(config_, handover_, std::move(log))) {
    launched_ = loop_->launch();
}

Status AnnotateSource::start(const CaptureContext& ctx) {
    if (!launched_) return launched_;
    if (capturing_) {
        // The previous capture was never stopped: close it out first (its listeners hold the
        // names this one needs).
        capturing_ = false;
        (void)loop_->end_capture();
    }
    handover_.begin(ctx.zero_monotonic_ns);
    last_ = 0;
    // The budgets are per poll: rates times the poll period.
    const CaptureBudget budget = budget_for(config_, kPollPeriod);
    if (Status st = loop_->begin_capture(budget); !st) return st;
    capturing_ = true;
    return {};
}

PollResult AnnotateSource::poll(model::Nanos now, std::vector<model::Event>& out) {
    (void)now;
    if (!capturing_) return {last_, false};
    const std::size_t before = out.size();
    last_ = std::max(last_, handover_.take(out));
    // Connections paused while the hand-over was full (it held events then) may read again.
    if (out.size() > before || loop_->wants_every_take()) loop_->wake();
    return {last_, false};
}

void AnnotateSource::stop(model::Nanos now, std::vector<model::Event>& out) {
    (void)now;
    if (!capturing_) return;
    capturing_ = false;
    (void)loop_->end_capture();
    handover_.take(out);
    const AnnotateStatistics now_counted = stats().counts;
    last_capture_ = now_counted.since(counted_at_stop_);
    counted_at_stop_ = now_counted;
}

}  // namespace apcgate::collectors::annotate
