// Application annotations as a capture source. Applications built with Arm's annotation library
// (streamline_annotate) connect as they do to gatord; each data connection is carried unchanged
// in External frames under its own id, with a disconnect frame when it closes, and Streamline
// decodes it. Scripts write lines to the text form's FIFO or socket; each line becomes an
// Annotate frame message. The endpoints are served by an I/O thread for the whole daemon run:
// the parent socket listens all the time, the data sockets only during a capture.
#pragma once

#include <memory>

#include "collectors/annotate/annotate_config.hpp"
#include "collectors/annotate/annotate_log.hpp"
#include "collectors/annotate/annotate_stats.hpp"
#include "collectors/annotate/handover.hpp"
#include "collectors/annotate/io_loop.hpp"
#include "collectors/source.hpp"

namespace apcgate::collectors::annotate {

class AnnotateSource final : public Source {
  public:
    // Opens the endpoints that live as long as the source (failures are logged; the source then
    // carries what it can) and starts the I/O thread.
    AnnotateSource(AnnotateConfig config, LogFn log);

    // Every 10 ms, like the perf collector: the capture's merger holds every other source's
    // events until this source's watermark passes them, so at the live rate (100 ms) a busy
    // system's perf records would wait, a hundred thousand at a time, in memory.
    static constexpr model::Nanos kPollPeriod = 10'000'000;

    [[nodiscard]] std::string_view name() const override { return "annotate"; }
    [[nodiscard]] model::Nanos poll_period() const override { return kPollPeriod; }
    Status start(const CaptureContext& ctx) override;
    PollResult poll(model::Nanos now, std::vector<model::Event>& out) override;
    void stop(model::Nanos now, std::vector<model::Event>& out) override;

    [[nodiscard]] AnnotateStats stats() const { return loop_->stats(); }
    // What the last capture counted: from the end of the one before (the sockets take
    // connections between captures too) to its stop().
    [[nodiscard]] std::vector<model::StatisticValue> statistics() const override {
        return last_capture_.values();
    }
    [[nodiscard]] const AnnotateConfig& config() const { return config_; }

  private:
    AnnotateConfig config_;
    Handover handover_;
    std::unique_ptr<IoLoop> loop_;  // declared after handover_: stops before it goes
    Status launched_;
    bool capturing_ = false;
    model::Nanos last_ = 0;
    AnnotateStatistics counted_at_stop_;  // stats().counts when the previous capture stopped
    AnnotateStatistics last_capture_;
};

}  // namespace apcgate::collectors::annotate
