// The XRay source decodes and maps on a thread of its own and hands batches over: what comes
// out must be what the reader and the mapper make when driven directly on one thread (same
// events in the same order, same counts, the same problems with exact totals, also past the
// problems a report keeps), a capture stopped mid-log must close what it opened and keep what
// was decoded, and a source dropped mid-log must not hang.
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <optional>

#include "collectors/xray/call_rate_counters.hpp"
#include "collectors/xray/problem_handover.hpp"
#include "collectors/xray/span_mapper.hpp"
#include "collectors/xray/xray_reader.hpp"
#include "collectors/xray/xray_source.hpp"
#include "fdr_builder.hpp"
#include "protocol/apc/encoder.hpp"
#include "xray_test_support.hpp"

namespace apcgate::xray_test {
namespace {

using collectors::PollResult;
using collectors::ingest::IngestReport;
namespace ingest = collectors::ingest;
using collectors::xray::XrayOptions;
using collectors::xray::XraySource;

// Calls enough for many batches: `threads` threads of `calls` calls 3 deep (an argument every
// 7th call) inside one call that lasts the whole thread, in buffers that interleave in the file;
// `bad_arguments` misplaced argument records (reported and skipped) in the first thread.
std::vector<std::uint8_t> big_log(int threads, int calls, int bad_arguments = 0) {
    FdrBuilder b(5, wire_endian::Little, BitOrder::LsbFirst, 1'000'000'000, 1 << 16);
    constexpr int kCallsPerBuffer = 1000;
    for (int done = 0; done < calls; done += kCallsPerBuffer) {
        for (int t = 0; t < threads; ++t) {
            b.begin_buffer(
                100 + t, 9, static_cast<std::uint16_t>(t),
                1'000'000 + static_cast<std::uint64_t>(done) * 30 + static_cast<std::uint64_t>(t));
            // A fifth of them in the first buffer, read as the log is opened; the rest later,
            // on the decoding thread.
            const int early = bad_arguments / 5;
            if (t == 0 && done == 0)
                for (int i = 0; i < early; ++i) b.argument(static_cast<std::uint64_t>(i));
            if (t == 0 && done == 5 * kCallsPerBuffer)
                for (int i = early; i < bad_arguments; ++i)
                    b.argument(static_cast<std::uint64_t>(i));
            if (done == 0) b.enter(9, 1);  // open from the thread's first event to its last
            for (int c = done; c < std::min(calls, done + kCallsPerBuffer); ++c) {
                if (c % 7 == 0) {
                    b.function(3, 1, 3).argument(static_cast<std::uint64_t>(c));
                } else {
                    b.enter(1, 3);
                }
                b.enter(2, 3).enter(3, 3).exit(3, 3).exit(2, 3).exit(1, 3);
            }
            if (done + kCallsPerBuffer >= calls) b.exit(9, 1);
            b.end_buffer();
        }
    }
    return b.bytes();
}

class TempLog {
  public:
    explicit TempLog(const std::vector<std::uint8_t>& bytes)
        : path_(std::filesystem::temp_directory_path() /
                ("apcgate-xray-source-test-" + std::to_string(::getpid()) + ".xray")) {
        write_bytes(path_, bytes);
    }
    ~TempLog() {
        std::error_code ec;
        std::filesystem::remove(path_, ec);
    }
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

class BytesSink : public apc::FrameSink {
  public:
    void frame(std::span<const std::uint8_t> body) override {
        bytes.insert(bytes.end(), body.begin(), body.end());
    }
    std::vector<std::uint8_t> bytes;
};

// One event per annotation (SpanRuns expanded).
std::vector<model::Event> expanded(std::vector<model::Event> events) {
    model::expand_span_runs(events);
    return events;
}

// A capture's events as APC bytes (equal bytes: equal events in equal order).
struct Encoded {
    explicit Encoded(const model::CaptureCounters& counters) : encoder(counters, sink) {
        encoder.summary(apc::SummaryInfo{});
    }
    // Encodes the events as they come (SpanRuns whole); checks time order annotation by
    // annotation.
    void add(const std::vector<model::Event>& events) {
        for (const auto& e : events) encoder.add(e);
        for (const auto& e : expanded(events)) {
            EXPECT_GE(model::timestamp_of(e), last) << "event " << count;
            last = std::max(last, model::timestamp_of(e));
            ++count;
        }
    }
    BytesSink sink;
    apc::Encoder encoder;
    model::Nanos last = 0;
    std::size_t count = 0;
};

struct Capture {
    std::unique_ptr<XraySource> source;
    model::CounterCatalog catalog;
    model::CaptureCounters counters;
    model::CaptureSettings settings;
};

// `thread`: decode on the source's thread, or in poll() (a process on one CPU).
Capture started(const std::filesystem::path& log, bool thread) {
    Capture c;
    XrayOptions options{log, {}};
    options.decoding_thread = thread;
    auto s = XraySource::open(options);
    EXPECT_TRUE(s) << (s ? "" : s.error().to_string());
    if (!s) return c;
    c.source = std::move(*s);
    c.source->declare(c.catalog);
    c.counters = model::CaptureCounters::assign(c.catalog, c.catalog.defaults());
    EXPECT_TRUE(c.source->start({c.settings, c.counters, c.source->time_origin()}));
    return c;
}

// What the source did on one thread before it had a thread of its own: the reader, the mapper
// and the counters driven directly, in time order.
struct Direct {
    std::vector<model::Event> events;
    std::unique_ptr<IngestReport> report;
};

Direct map_directly(const std::vector<std::uint8_t>& bytes, const model::CaptureCounters& counters,
                    model::Nanos zero) {
    using namespace collectors::xray;
    Direct d;
    d.report = std::make_unique<IngestReport>("xray", "log");
    auto reader = XrayReader::open(bytes, "log", *d.report);
    EXPECT_TRUE(reader);
    if (!reader) return d;
    FunctionNames names;
    SpanMapper mapper(names, (*reader)->stats(), "", "");
    CallRateCounters rates;
    rates.start((*reader)->index(), counters);
    model::Nanos last = (*reader)->origin_ns().value_or(0) - zero;
    std::uint32_t thread = 0;
    const CallEvent* e = nullptr;
    for (;;) {
        const auto step = (*reader)->next(thread, e);
        if (step == XrayReader::Step::Done) break;
        if (step == XrayReader::Step::ThreadEnd) {
            mapper.thread_end(last, thread, (*reader)->thread(thread), d.events);
            continue;
        }
        const model::Nanos ts = e->ns - zero;
        rates.advance(ts, d.events);
        if (is_entry(e->kind)) rates.count_call(thread);
        mapper.event(ts, thread, (*reader)->thread(thread), *e, (*reader)->args(thread, *e),
                     (*reader)->payload(*e), d.events);
        last = ts;
    }
    rates.finish(d.events);
    (*reader)->stats().flush(*d.report);
    return d;
}

void expect_same_report(const IngestReport& got, const IngestReport& want) {
    EXPECT_EQ(got.problem_count(), want.problem_count());
    ASSERT_EQ(got.problems().size(), want.problems().size());
    for (std::size_t i = 0; i < want.problems().size(); ++i) {
        EXPECT_EQ(got.problems()[i].offset, want.problems()[i].offset) << "problem " << i;
        EXPECT_EQ(got.problems()[i].message, want.problems()[i].message) << "problem " << i;
    }
    ASSERT_EQ(got.kinds().size(), want.kinds().size());
    for (const auto& [kind, s] : want.kinds()) {
        const auto& g = got.kinds().at(kind);
        EXPECT_EQ(g.read, s.read) << kind;
        EXPECT_EQ(g.mapped, s.mapped) << kind;
        EXPECT_EQ(g.skipped, s.skipped) << kind;
        EXPECT_EQ(g.bad, s.bad) << kind;
    }
}

// Each test runs with the decoding thread and with decoding in poll().
class XraySourceModes : public testing::TestWithParam<bool> {};

TEST_P(XraySourceModes, BatchesEqualTheReaderAndMapperDrivenDirectly) {
    // 3 threads x 40000 calls: over 40 batches. 250 misplaced arguments: more problems than a
    // report keeps, all met on the decoding thread.
    const auto bytes = big_log(3, 40000, 250);
    TempLog log(bytes);
    Capture c = started(log.path(), GetParam());
    ASSERT_TRUE(c.source);
    Encoded got(c.counters);
    std::vector<model::Event> out;
    std::size_t polls = 0;
    for (;;) {
        const PollResult r = c.source->poll(0, out);
        ++polls;
        got.add(out);
        // The watermark promises no later event before it; the last poll promises nothing
        // (its calls-per-second samples fall at the end of the last millisecond).
        if (!r.finished) {
            for (const auto& e : expanded(out)) {
                EXPECT_LE(model::timestamp_of(e), r.watermark);
            }
        }
        out.clear();
        if (r.finished) break;
        ASSERT_LT(polls, 10000U);
    }
    EXPECT_GT(polls, 40U);
    EXPECT_TRUE(c.source->poll(0, out).finished);
    EXPECT_TRUE(out.empty());
    got.encoder.flush();

    const Direct want = map_directly(bytes, c.counters, c.source->time_origin());
    Encoded expected(c.counters);
    expected.add(want.events);
    expected.encoder.flush();
    EXPECT_EQ(got.count, expanded(want.events).size());
    EXPECT_TRUE(got.sink.bytes == expected.sink.bytes);

    const IngestReport& report = c.source->report();
    expect_same_report(report, *want.report);
    EXPECT_EQ(report.problem_count(), 250U);
    EXPECT_EQ(report.problems().size(), IngestReport::kMaxKeptProblems);
    EXPECT_EQ(report.kinds().at("CallArgument").bad, 250U);
    EXPECT_EQ(report.bytes_done, report.bytes_total);
}

// Per channel: every span opened is closed, never two open at once.
void expect_spans_closed(const std::vector<model::Event>& events) {
    std::map<std::int32_t, int> open;
    for (const auto& ev : expanded(events)) {
        const auto* a = std::get_if<model::Annotation>(&ev);
        if (a == nullptr) continue;
        const auto* s = std::get_if<model::StringAnnotation>(&a->body);
        if (s == nullptr) continue;
        int& n = open[s->channel];
        n += s->text.empty() ? -1 : 1;
        ASSERT_TRUE(n == 0 || n == 1) << "channel " << s->channel;
    }
    for (const auto& [channel, n] : open) EXPECT_EQ(n, 0) << "channel " << channel;
}

TEST_P(XraySourceModes, StopMidLogKeepsWhatWasDecodedAndClosesWhatItOpened) {
    TempLog log(big_log(2, 60000));
    Capture c = started(log.path(), GetParam());
    ASSERT_TRUE(c.source);
    std::vector<model::Event> all, out;
    const PollResult first = c.source->poll(0, out);
    ASSERT_FALSE(first.finished);
    all.insert(all.end(), out.begin(), out.end());
    out.clear();
    c.source->stop(0, out);
    all.insert(all.end(), out.begin(), out.end());
    EXPECT_TRUE(c.source->poll(0, out).finished);

    Encoded got(c.counters);
    got.add(all);  // time order across the stop
    expect_spans_closed(all);
    const IngestReport& report = c.source->report();
    const auto entries =
        report.kinds().at("function-enter").mapped + report.kinds().at("function-enter-arg").mapped;
    // It stopped before the log's end (120000 calls x 3 entries), after the first batch.
    EXPECT_LT(entries, 360000U);
    EXPECT_GE(entries, XraySource::kEventsPerBatch / 2);
    // The calls open at the stop were closed and counted so.
    EXPECT_GT(xray_test::statistic(report, collectors::xray::XrayStat::EntriesWithoutExit), 0U);
    EXPECT_LT(report.bytes_done, report.bytes_total);
}

// A log cut short after the first poll (a program writing its log again): reading a mapped page
// past the file's new end raised SIGBUS and ended the process; now the capture ends with the
// batches decoded before, and the report says the file was cut and where.
TEST_P(XraySourceModes, ALogCutWhileACaptureReadsItEndsWithTheCutReported) {
    TempLog log(big_log(2, 60000));
    const auto full = std::filesystem::file_size(log.path());
    Capture c = started(log.path(), GetParam());
    ASSERT_TRUE(c.source);
    std::vector<model::Event> all, out;
    ASSERT_FALSE(c.source->poll(0, out).finished);
    all.insert(all.end(), out.begin(), out.end());
    const std::uintmax_t cut = 4096 + 100;
    std::filesystem::resize_file(log.path(), cut);
    bool finished = false;
    for (int polls = 0; !finished && polls < 1000; ++polls) {
        out.clear();
        finished = c.source->poll(0, out).finished;
        all.insert(all.end(), out.begin(), out.end());
    }
    ASSERT_TRUE(finished);
    out.clear();
    c.source->stop(0, out);
    all.insert(all.end(), out.begin(), out.end());

    Encoded got(c.counters);
    got.add(all);  // still in time order
    const IngestReport& report = c.source->report();
    ASSERT_TRUE(report.stop_reason()) << "the cut was not reported";
    const Error& why = *report.stop_reason();
    EXPECT_EQ(why.kind, ErrorKind::Truncated);
    EXPECT_EQ(why.record, "file");
    EXPECT_EQ(why.offset, cut);
    EXPECT_NE(why.message.find(std::to_string(full) + " bytes when it was opened"),
              std::string::npos)
        << why.message;
    EXPECT_LT(report.bytes_done, full);
}

TEST_P(XraySourceModes, DroppedMidLogWithoutStopEndsCleanly) {
    TempLog log(big_log(2, 60000));
    for (int polls = 0; polls < 3; ++polls) {
        Capture c = started(log.path(), GetParam());
        ASSERT_TRUE(c.source);
        std::vector<model::Event> out;
        for (int i = 0; i < polls; ++i) EXPECT_FALSE(c.source->poll(0, out).finished);
        c.source.reset();  // joins a decoding thread, which may wait on a full queue
    }
}

TEST_P(XraySourceModes, EveryCaptureReadsTheLogAfresh) {
    TempLog log(big_log(1, 3000));
    Capture c = started(log.path(), GetParam());
    ASSERT_TRUE(c.source);
    std::vector<model::Event> first, out;
    while (!c.source->poll(0, out).finished) {
    }
    first.swap(out);
    ASSERT_TRUE(c.source->start({c.settings, c.counters, c.source->time_origin()}));
    while (!c.source->poll(0, out).finished) {
    }
    Encoded a(c.counters), b(c.counters);
    a.add(first);
    b.add(out);
    a.encoder.flush();
    b.encoder.flush();
    EXPECT_GT(expanded(first).size(), 9000U);
    EXPECT_TRUE(a.sink.bytes == b.sink.bytes);
}

TEST_P(XraySourceModes, RefreshReadsTheTimesOfALogRewrittenSinceItWasOpened) {
    // One call at `tsc` (1 GHz), its buffer stamped with CLOCK_MONOTONIC 200 s.
    const auto log_at = [](std::uint64_t tsc) {
        FdrBuilder b(5);
        b.next_wall_clock(200, 0).begin_buffer(7, 70, 0, tsc).enter(1, 0).exit(1, 5).end_buffer();
        return b.bytes();
    };
    TempLog log(log_at(50'000));
    XrayOptions options{log.path(), {}};
    options.decoding_thread = GetParam();
    auto s = XraySource::open(options);
    ASSERT_TRUE(s);
    XraySource& source = **s;
    EXPECT_EQ(source.time_origin(), 50'000);
    EXPECT_EQ(source.clock().to_monotonic, 200'000'000'000 - 50'000);
    ASSERT_TRUE(source.refresh());  // unchanged: the same
    EXPECT_EQ(source.time_origin(), 50'000);

    // A new run's log under the same name (a new file, as a writer that replaces files makes).
    const auto fresh = log.path().string() + ".new";
    write_bytes(fresh, log_at(90'000));
    std::filesystem::rename(fresh, log.path());
    ASSERT_TRUE(source.refresh());
    EXPECT_EQ(source.time_origin(), 90'000);
    EXPECT_EQ(source.clock().to_monotonic, 200'000'000'000 - 90'000);

    // The start after it reads that log.
    model::CounterCatalog catalog;
    source.declare(catalog);
    const auto counters = model::CaptureCounters::assign(catalog, catalog.defaults());
    model::CaptureSettings settings;
    ASSERT_TRUE(source.start({settings, counters, 90'000}));
    std::vector<model::Event> out;
    while (!source.poll(0, out).finished) {
    }
    const auto times = [&] {
        std::vector<model::Nanos> t;
        for (const auto& e : expanded(out)) {
            const auto* a = std::get_if<model::Annotation>(&e);
            const auto* text = a ? std::get_if<model::StringAnnotation>(&a->body) : nullptr;
            if (text != nullptr && a->tid == 7 && (text->text == "fn#1" || text->text.empty()))
                t.push_back(a->ts);
        }
        return t;
    }();
    EXPECT_EQ(times, (std::vector<model::Nanos>{0, 5}));
}

INSTANTIATE_TEST_SUITE_P(XraySource, XraySourceModes, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& p) {
                             return p.param ? "DecodingThread" : "DecodingInPoll";
                         });

std::size_t tasks_of_this_process() {
    std::size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator("/proc/self/task")) {
        (void)e;
        ++n;
    }
    return n;
}

// Confines the calling thread (and the threads it starts) to its first allowed CPU while alive.
class OnOneCpu {
  public:
    OnOneCpu() {
        CPU_ZERO(&all_);
        EXPECT_EQ(::sched_getaffinity(0, sizeof(all_), &all_), 0);
        cpu_set_t one;
        CPU_ZERO(&one);
        for (int c = 0; c < CPU_SETSIZE; ++c) {
            if (CPU_ISSET(c, &all_)) {
                CPU_SET(c, &one);
                break;
            }
        }
        EXPECT_EQ(::sched_setaffinity(0, sizeof(one), &one), 0);
    }
    ~OnOneCpu() { ::sched_setaffinity(0, sizeof(all_), &all_); }
    OnOneCpu(const OnOneCpu&) = delete;
    OnOneCpu& operator=(const OnOneCpu&) = delete;
    [[nodiscard]] unsigned allowed_before() const {
        return static_cast<unsigned>(CPU_COUNT(&all_));
    }

  private:
    cpu_set_t all_;
};

TEST(UsableCpus, CountsTheAffinityMask) {
    unsigned before = 0;
    {
        OnOneCpu one;
        before = one.allowed_before();
        EXPECT_EQ(ingest::usable_cpus(), 1U);
    }
    EXPECT_EQ(ingest::usable_cpus(), before);
}

// Unset, the mode follows the CPUs the process may use: on one, no thread is started.
TEST(XraySource, OnOneCpuDecodesInPollUnlessTold) {
    // More batches than the queue holds: a decoding thread is still there, waiting, when the
    // tasks are counted.
    TempLog log(big_log(2, 60000));
    const auto start = [&](std::optional<bool> thread) {
        XrayOptions options{log.path(), {}};
        options.decoding_thread = thread;
        auto s = XraySource::open(options);
        EXPECT_TRUE(s);
        model::CounterCatalog catalog;
        (*s)->declare(catalog);
        const auto counters = model::CaptureCounters::assign(catalog, catalog.defaults());
        const std::size_t tasks = tasks_of_this_process();
        EXPECT_TRUE((*s)->start({model::CaptureSettings{}, counters, (*s)->time_origin()}));
        const std::size_t started = tasks_of_this_process() - tasks;
        std::vector<model::Event> out;
        while (!(*s)->poll(0, out).finished) {
        }
        EXPECT_GT(out.size(), 0U);
        return started;
    };
    {
        OnOneCpu one;
        EXPECT_EQ(start(std::nullopt), 0U);
        EXPECT_EQ(start(true), 1U);
    }
    if (ingest::usable_cpus() > 1) {
        EXPECT_EQ(start(std::nullopt), 1U);
    }
    EXPECT_EQ(start(false), 0U);
}

Error problem(const std::string& record, std::uint64_t offset) {
    Error e = Error::at(ErrorKind::Malformed, "bad at " + std::to_string(offset));
    e.record = record;
    e.offset = offset;
    return e;
}

TEST(ProblemHandover, AddsCountsKeptProblemsAndTheOnesNotKept) {
    IngestReport from("xray", "log"), to("xray", "log");
    to.read("Block", 2);
    to.bad_record(problem("Pid", 1));
    from.read("Block", 3);
    from.mapped("function-enter", 4);
    from.skipped("CallArgument", 5);
    for (std::uint64_t i = 0; i < 130; ++i) from.bad_record(problem("CallArgument", 100 + i));
    from.bad_record(Error::at(ErrorKind::Malformed, "no kind"));
    for (std::uint64_t i = 0; i < 5; ++i) from.bad_record(problem("Metadata", 500 + i));
    collectors::xray::add_report(from, to);

    EXPECT_EQ(to.problem_count(), 1U + 136U);
    ASSERT_EQ(to.problems().size(), IngestReport::kMaxKeptProblems);
    EXPECT_EQ(to.problems()[0].offset, 1U);
    EXPECT_EQ(to.problems()[1].offset, 100U);
    EXPECT_EQ(to.problems().back().offset, 100U + IngestReport::kMaxKeptProblems - 2);
    EXPECT_EQ(to.kinds().at("Block").read, 5U);
    EXPECT_EQ(to.kinds().at("function-enter").mapped, 4U);
    EXPECT_EQ(to.kinds().at("CallArgument").skipped, 5U);
    EXPECT_EQ(to.kinds().at("CallArgument").bad, 130U);
    EXPECT_EQ(to.kinds().at("Metadata").bad, 5U);
    EXPECT_EQ(to.kinds().at("Pid").bad, 1U);
    EXPECT_TRUE(to.complete());

    // The index stops reading a cut log, then the threads' decoders report what they met.
    IngestReport stopping("xray", "log"), whole("xray", "log");
    stopping.bad_record(problem("Pid", 7));
    stopping.stopped(problem("BufferExtents", 9));
    stopping.bad_record(problem("Function", 3));
    collectors::xray::add_report(stopping, whole);
    EXPECT_EQ(whole.problem_count(), 3U);
    ASSERT_FALSE(whole.complete());
    EXPECT_EQ(whole.stop_reason()->record, "BufferExtents");
    EXPECT_EQ(whole.stop_reason()->offset, 9U);
    ASSERT_EQ(whole.problems().size(), 3U);
    EXPECT_EQ(whole.problems()[2].record, "Function");
    EXPECT_EQ(whole.kinds().at("Pid").bad, 1U);
    EXPECT_EQ(whole.kinds().at("Function").bad, 1U);
    EXPECT_EQ(whole.kinds().count("BufferExtents"), 0U);

    // A stop met when the list was full is counted once and still ends the report.
    IngestReport late("xray", "log"), full("xray", "log");
    for (std::uint64_t i = 0; i < IngestReport::kMaxKeptProblems; ++i)
        late.bad_record(problem("Pid", i));
    late.stopped(problem("NewBuffer", 999));
    collectors::xray::add_report(late, full);
    EXPECT_EQ(full.problem_count(), IngestReport::kMaxKeptProblems + 1);
    ASSERT_FALSE(full.complete());
    EXPECT_EQ(full.stop_reason()->offset, 999U);
    EXPECT_EQ(full.kinds().at("Pid").bad, IngestReport::kMaxKeptProblems);
    EXPECT_EQ(full.kinds().count("NewBuffer"), 0U);
}

// The stop is handed over as the stop, found by its place among the problems: a bad record
// that reads the same (same words, offset and record kind) stays a bad record.
TEST(ProblemHandover, TheStopIsTheStopEvenWhenABadRecordReadsTheSame) {
    IngestReport from("xray", "log"), to("xray", "log");
    from.bad_record(problem("BufferExtents", 9));
    Error stop = problem("BufferExtents", 9);
    stop.kind = ErrorKind::Truncated;
    from.stopped(std::move(stop));
    collectors::xray::add_report(from, to);
    ASSERT_FALSE(to.complete());
    EXPECT_EQ(to.stop_reason()->kind, ErrorKind::Truncated);
    ASSERT_EQ(to.problems().size(), 2U);
    EXPECT_EQ(to.problems()[0].kind, ErrorKind::Malformed);
    EXPECT_EQ(to.kinds().at("BufferExtents").bad, 1U);
}

}  // namespace
}  // namespace apcgate::xray_test
