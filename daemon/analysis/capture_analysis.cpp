#include "daemon/analysis/capture_analysis.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <span>
#include <string>

#include "collectors/ingest/ingest_source.hpp"
#include "daemon/analysis/connection_annotations.hpp"
#include "daemon/analysis/counter_statistics.hpp"
#include "daemon/analysis/frame_batches.hpp"
#include "daemon/analysis/perf_analysis.hpp"
#include "daemon/analysis/span_statistics.hpp"
#include "daemon/analysis/stack_profile.hpp"
#include "daemon/analysis/timeline_accounting.hpp"
#include "daemon/capture/apc_directory.hpp"
#include "daemon/capture/capture_files.hpp"
#include "daemon/capture/perf_capture_summary.hpp"
#include "protocol/apc/annotate_scan.hpp"
#include "protocol/apc/capture_stream.hpp"
#include "protocol/wire/overloaded.hpp"
#include "protocol/wire/unique_fd.hpp"

namespace apcgate::daemon::analysis {

namespace {

struct TimeRange {
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    void add(std::int64_t ts) {
        first = std::min(first, ts);
        last = std::max(last, ts);
    }
    [[nodiscard]] bool empty() const { return first > last; }
    [[nodiscard]] std::int64_t end() const { return empty() ? 0 : last; }
    [[nodiscard]] std::int64_t duration() const { return empty() ? 0 : last - first; }
};

// Hands each rebuilt event of a v6.8 capture to the accumulators.
class GatorAnalysis {
  public:
    GatorAnalysis(const xml::CapturedDoc& captured, const std::vector<xml::EventInfo>& events,
                  const AnalysisOptions& options)
        : symbols_(options.symbols),
          stacks_(symbols_, options.pid),
          counters_(captured.counters, events) {}

    void event(const model::Event& e) {
        std::visit(wire::Overloaded{
                       [&](const model::Annotation& a) {
                           time_.add(a.ts);
                           spans_.annotation(a);
                       },
                       [&](const model::Backtrace& b) {
                           time_.add(b.ts);
                           ++samples_;
                           timeline_.sample(b.pid, b.tid);
                           stacks_.sample(b);
                       },
                       [&](const model::CounterSample& c) {
                           time_.add(c.ts);
                           counters_.value(c.key, c.value);
                       },
                       [&](const model::ActivitySwitch& a) {
                           time_.add(a.ts);
                           timeline_.switch_to(a.ts, a.key, a.core, a.activity == 0 ? 0 : a.tid,
                                               a.wait);
                       },
                       [&](const model::SchedSwitch& s) {
                           time_.add(s.ts);
                           timeline_.switch_to(s.ts, -1, s.core, s.tid, s.state);
                       },
                       [&](const model::SchedThreadExit& x) {
                           time_.add(x.ts);
                           timeline_.thread_exit(x.ts, x.tid);
                       },
                       [&](const model::TaskExit& x) {
                           time_.add(x.ts);
                           timeline_.thread_exit(x.ts, x.tid);
                       },
                       [&](const model::ThreadName& t) {
                           if (t.ts > 0) time_.add(t.ts);
                           timeline_.name_thread(t.tid, t.name, true);
                       },
                       [&](const model::ProcComm& p) {
                           timeline_.name_thread(p.tid, p.comm, false);
                           timeline_.process_of(p.tid, p.pid);
                           timeline_.process_image(p.pid, p.image);
                       },
                       [&](const model::ActivityLink& l) {
                           time_.add(l.ts);
                           timeline_.process_of(l.tid, l.pid);
                       },
                       [&](const model::CookieName& c) { symbols_.name_cookie(c.cookie, c.name); },
                       [&](const model::Idle& i) { time_.add(i.ts); },
                       [&](const model::ExternalData& x) { connections_.data(x.id, x.bytes); },
                       [&](const model::ExternalDisconnect& x) { connections_.disconnect(x.id); },
                       [](const auto&) {},
                   },
                   e);
    }

    void summary(const apc::SummaryMessage& s) { connections_.clock_zero(s.monotonic_delta_ns); }

    void string_annotation(std::int64_t ts, std::int32_t channel, std::string_view text) {
        time_.add(ts);
        spans_.string_annotation(ts, channel, text);
    }

    void finish(Report& r) {
        spans_.finish(time_.end());
        timeline_.finish(time_.end());
        r.duration_ns = time_.duration();
        r.samples = samples_;
        timeline_.fill(r);
        stacks_.fill(r);
        spans_.fill(r);
        counters_.fill(r);
        if (!timeline_.saw_switches())
            r.notes.emplace_back(
                "no activity timeline (Activity or Scheduler Trace switches): threads' cpu_ns "
                "and wait times are 0; their CPU samples are counted");
        if (samples_ == 0)
            r.notes.emplace_back("no CPU samples (Backtrace frames): no functions or stacks");
        for (const auto& image : symbols_.unreadable())
            r.notes.push_back("cannot read the symbols of " + image +
                              " (its functions are shown as offsets; see --binary-dir, --sysroot)");
        connections_.fill(r);
    }

  private:
    ImageSymbols symbols_;
    StackProfile stacks_;
    CounterStatistics counters_;
    TimelineAccounting timeline_;
    SpanStatistics spans_;
    ConnectionAnnotations connections_{spans_};
    TimeRange time_;
    std::uint64_t samples_ = 0;
};

// The frame items of a v6.8 capture's data file, in file order, into a GatorAnalysis: a message
// that is one whole string annotation goes straight to the span statistics, any other message
// and every other frame through the rebuilder. The first error stops the pass: it is the
// Analysis's data_error.
class GatorPass {
  public:
    GatorPass(GatorAnalysis& analysis, std::string data_path, Analysis& out)
        : analysis_(analysis), data_path_(std::move(data_path)), out_(out) {}

    // False: stop (out.data_error says why).
    bool item(const FrameItem& it) {
        switch (it.kind) {
            case FrameItem::Kind::String:
                if (!partial_) {
                    analysis_.string_annotation(it.ts, it.channel, it.text());
                    return true;
                }
                [[fallthrough]];
            case FrameItem::Kind::Message:
                return message(it);
            case FrameItem::Kind::Frame:
                break;
        }
        return frame(it);
    }

    [[nodiscard]] std::size_t pending_annotation_bytes() const {
        return rebuild_.pending_annotation_bytes();
    }

  private:
    // One Annotate message, as the one message of an Annotate frame.
    bool message(const FrameItem& it) {
        apc::DecodedFrame one;
        one.type = apc::FrameType::Annotate;
        one.offset = it.offset;
        one.messages.push_back(
            {it.offset,
             apc::AnnotateMessage{it.core, it.tid, it.ts, {it.bytes.begin(), it.bytes.end()}}});
        return rebuilt(rebuild_.add(one));
    }

    bool frame(const FrameItem& it) {
        auto frame = apc::decode_frame(it.bytes, it.offset);
        if (apc::frame_type_of(it.bytes) == apc::FrameType::Annotate) {
            // An Annotate frame that did not scan: decode_frame says where and why.
            out_.data_error =
                frame ? Error::at(ErrorKind::Malformed, "Annotate frame does not decode")
                            .in_input(data_path_)
                      : std::move(frame).take_error().in_input(data_path_);
            return false;
        }
        if (!frame) {
            out_.data_error = std::move(frame).take_error().in_input(data_path_);
            return false;
        }
        if (frame->type == apc::FrameType::Summary) {
            for (const auto& m : frame->messages)
                if (const auto* s = std::get_if<apc::SummaryMessage>(&m.body))
                    analysis_.summary(*s);
        }
        return rebuilt(rebuild_.add(*frame));
    }

    // Hands what the rebuilder rebuilt to the analysis.
    bool rebuilt(Status s) {
        if (!s.ok()) {
            out_.data_error = std::move(s).take_error().in_input(data_path_);
            return false;
        }
        for (const auto& e : rebuild_.events()) analysis_.event(e);
        rebuild_.events().clear();
        partial_ = rebuild_.pending_annotation_bytes() > 0;
        return true;
    }

    GatorAnalysis& analysis_;
    apc::EventRebuilder rebuild_;
    const std::string data_path_;
    Analysis& out_;
    bool partial_ = false;  // the rebuilder holds part of an annotation
};

// How the frames ended, when not cleanly: a cut-short last frame is a loss, anything else the
// data's error (unless the pass stopped at one already).
void account_split_end(const FrameSplitEnd& split, const std::string& data_path, Analysis& out) {
    if (out.data_error || !split.error) return;
    if (split.end == apc::StreamEnd::Truncated) {
        out.report.losses.add(AnalysisStat::TruncatedFrame, 1, split.error->to_string());
    } else {
        out.data_error = Error(*split.error).in_input(data_path);
    }
}

Result<Analysis> analyse_gator(const std::filesystem::path& dir, const AnalysisOptions& options) {
    // captured.xml only: the data file is read below in chunks, never mapped.
    auto captured = read_captured(dir);
    if (!captured) return std::move(captured).take_error();
    Analysis out;
    Report& r = out.report;
    r.capture = dir.string();
    r.framing = "gator";
    GatorAnalysis analysis(*captured, read_event_infos(dir), options);
    const std::string data_path = (dir / kApcDataFile).string();
    GatorPass pass(analysis, data_path, out);
    wire::UniqueFd fd(::open(data_path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid())
        return Error::at(ErrorKind::Io, std::string("cannot open: ") + std::strerror(errno))
            .in_input(data_path);
    ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
    const ReadBytes read = [&](std::span<std::uint8_t> into) -> Result<std::size_t> {
        for (;;) {
            const ssize_t n = ::read(fd.get(), into.data(), into.size());
            if (n >= 0) return static_cast<std::size_t>(n);
            if (errno != EINTR)
                return Error::at(ErrorKind::Io,
                                 std::string("cannot read: ") + std::strerror(errno));
        }
    };
    const FrameSplitEnd split = read_frame_batches(
        read, options.reading_thread.value_or(collectors::ingest::usable_cpus() > 1),
        [&](const FrameBatch& batch) {
            for (const FrameItem& it : batch.used())
                if (!pass.item(it)) return false;
            return true;
        });
    account_split_end(split, data_path, out);
    r.losses.add(AnalysisStat::AnnotationBytesUnfinished, pass.pending_annotation_bytes());
    analysis.finish(r);
    return out;
}

}  // namespace

Result<Analysis> analyse_capture(const std::filesystem::path& dir, const AnalysisOptions& options) {
    if (is_perf_capture(dir)) return analyse_perf_capture(dir, options);
    return analyse_gator(dir, options);
}

}  // namespace apcgate::daemon::analysis
