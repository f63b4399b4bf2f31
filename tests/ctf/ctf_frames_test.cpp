// The CTF worker's frame codec (collectors/ctf/worker_frames.hpp): every frame kind and every
// event kind the mappers emit survives a round trip (counter keys mapped back to the capture's),
// and truncated, oversized or garbage frames are errors, never crashes.
#include <gtest/gtest.h>

#include <cstring>

#include "collectors/ctf/trace_graph.hpp"
#include "collectors/ctf/worker_frames.hpp"

namespace apcgate::ctf_test {
namespace {

namespace ctf = collectors::ctf;
using ctf::FrameKind;

// Splits one encoded frame into its header and body.
std::span<const std::uint8_t> body_of(const ctf::FrameBytes& frame, FrameKind kind) {
    auto h = ctf::decode_header(std::span(frame).first(ctf::kFrameHeaderBytes));
    EXPECT_TRUE(h) << h.error().to_string();
    if (!h) return {};
    EXPECT_EQ(h->kind, kind);
    EXPECT_EQ(h->body_bytes + ctf::kFrameHeaderBytes, frame.size());
    return std::span(frame).subspan(ctf::kFrameHeaderBytes);
}

Error sample_error(const std::string& what) {
    Error e = Error::at(ErrorKind::Malformed, what);
    e.input = "/t/chan_0";
    e.offset = 4096;
    e.record = "CTF data stream";
    e.field = "packet_size";
    e.context = {"decoding after 12 events", "reading"};
    return e;
}

ctf::Chunk sample_chunk() {
    ctf::Chunk c;
    using namespace model;
    c.events.emplace_back(CounterSample{10, 1, 3, 42, -1});
    c.events.emplace_back(ActivitySwitch{11, 2, 4, 1, 77, WaitState::Io});
    c.events.emplace_back(ThreadName{12, 0, 77, "worker"});
    c.events.emplace_back(ProcComm{13, 1, 70, 77, "/bin/app", "app"});
    c.events.emplace_back(TaskExit{14, 77});
    c.events.emplace_back(SchedSwitch{15, 3, 77, WaitState::Contention});
    c.events.emplace_back(Annotation{16, 0, 77, GroupName{5, "app (pid 70)"}});
    c.events.emplace_back(Annotation{17, 0, 77, ChannelName{9, 5, "app:tick"}});
    c.events.emplace_back(Annotation{18, 1, 77, StringAnnotation{9, std::nullopt, {}}});  // sliced
    c.events.emplace_back(Annotation{19, 0, 78, StringAnnotation{10, std::nullopt, "own"}});
    c.events.emplace_back(Annotation{20, 1, 77, StringAnnotation{9, Rgb{1, 2, 3}, "direct"}});
    c.events.emplace_back(Annotation{21, 0, 0, MarkerAnnotation{std::nullopt, "lost 5"}});
    c.texts.begin(8) += "app:tick i = 1";
    c.texts.end();
    c.counts.read("app:tick", 7);
    c.counts.mapped("app:tick", 6);
    c.counts.skipped("(packets)", 2);
    c.counts.bad_record(sample_error("cpu_id 9999 is out of range"));
    c.counts.stopped(sample_error("No event class with ID 3"));
    c.watermark = 21;
    c.clock_ns = 1700000000000000020;
    c.finished = true;
    return c;
}

const std::vector<model::CounterKey> kKeys{17, 23};  // the child's keys 3 and 4

// `events` with the texts the mapper wrote into `texts` set in their string annotations: what
// the worker's frame says of them.
std::vector<model::Event> with_texts(std::vector<model::Event> events,
                                     const ctf::DeferredTexts& texts) {
    for (const auto& s : texts.slices()) {
        auto& a = std::get<model::Annotation>(events.at(s.event));
        std::get<model::StringAnnotation>(a.body).text = texts.bytes().substr(s.offset, s.length);
    }
    return events;
}

std::string text_of(const model::Event& e) {
    const auto* a = std::get_if<model::Annotation>(&e);
    const auto* s = a != nullptr ? std::get_if<model::StringAnnotation>(&a->body) : nullptr;
    return s != nullptr ? s->text : "-";
}

// The decoded events, their span runs expanded, against the events the worker mapped: kind,
// time and string annotation text, one by one.
void expect_same_events(std::vector<model::Event> got, const std::vector<model::Event>& expected) {
    model::expand_span_runs(got);
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(got[i].index(), expected[i].index()) << i;
        EXPECT_EQ(model::timestamp_of(got[i]), model::timestamp_of(expected[i])) << i;
        EXPECT_EQ(text_of(got[i]), text_of(expected[i])) << i;
    }
}

TEST(CtfFrames, ChunkRoundTripsEveryEventKindAndMapsKeys) {
    const ctf::Chunk in = sample_chunk();
    ctf::FrameBytes frame;
    ctf::encode_chunk(in, frame);
    ctf::Chunk out;
    Status st = ctf::decode_chunk(body_of(frame, FrameKind::Chunk), kKeys, out);
    ASSERT_TRUE(st) << st.error().to_string();
    // The two uncoloured string annotations in a row came as one span run.
    ASSERT_EQ(out.events.size(), in.events.size() - 1);
    const auto* run = std::get_if<model::SpanRun>(&out.events[8]);
    ASSERT_NE(run, nullptr);
    ASSERT_EQ(run->pending(), 2U);
    EXPECT_EQ(run->text(run->items[0]), "app:tick i = 1");
    EXPECT_EQ(run->text(run->items[1]), "own");
    EXPECT_EQ(run->items[1].channel, 10);
    EXPECT_EQ(run->items[1].tid, 78);
    EXPECT_EQ(run->items[1].core, 0);
    expect_same_events(out.events, with_texts(in.events, in.texts));
    model::expand_span_runs(out.events);
    ASSERT_EQ(out.events.size(), in.events.size());
    const auto& c = std::get<model::CounterSample>(out.events[0]);
    EXPECT_EQ(c.key, 17);
    EXPECT_EQ(c.value, 42);
    EXPECT_EQ(c.core, 1);
    const auto& a = std::get<model::ActivitySwitch>(out.events[1]);
    EXPECT_EQ(a.key, 23);
    EXPECT_EQ(a.tid, 77);
    EXPECT_EQ(a.wait, model::WaitState::Io);
    EXPECT_EQ(std::get<model::ProcComm>(out.events[3]).image, "/bin/app");
    EXPECT_EQ(std::get<model::ProcComm>(out.events[3]).comm, "app");
    EXPECT_EQ(std::get<model::SchedSwitch>(out.events[5]).state, model::WaitState::Contention);
    const auto body = [&](std::size_t i) {
        return std::get<model::Annotation>(out.events[i]).body;
    };
    EXPECT_EQ(std::get<model::GroupName>(body(6)).name, "app (pid 70)");
    EXPECT_EQ(std::get<model::ChannelName>(body(7)).group, 5);
    EXPECT_EQ(std::get<model::StringAnnotation>(body(8)).text, "app:tick i = 1");
    EXPECT_EQ(std::get<model::StringAnnotation>(body(9)).text, "own");
    EXPECT_EQ(std::get<model::StringAnnotation>(body(10)).text, "direct");
    EXPECT_EQ(std::get<model::StringAnnotation>(body(10)).color, (model::Rgb{1, 2, 3}));
    EXPECT_EQ(std::get<model::MarkerAnnotation>(body(11)).text, "lost 5");
    EXPECT_EQ(out.counts.kinds().at("app:tick").read, 7U);
    EXPECT_EQ(out.counts.kinds().at("app:tick").mapped, 6U);
    EXPECT_EQ(out.counts.kinds().at("(packets)").skipped, 2U);
    ASSERT_EQ(out.counts.problems().size(), 2U);
    ASSERT_TRUE(out.counts.stop_reason());
    EXPECT_EQ(out.counts.stop_reason()->to_string(),
              sample_error("No event class with ID 3").to_string());
    EXPECT_EQ(out.counts.problems()[0].to_string(),
              sample_error("cpu_id 9999 is out of range").to_string());
    EXPECT_EQ(out.counts.problems()[0].kind, ErrorKind::Malformed);
    EXPECT_EQ(out.watermark, 21);
    EXPECT_EQ(out.clock_ns, 1700000000000000020);
    EXPECT_TRUE(out.finished);
}

// Decoded, a chunk's stretches of two or more uncoloured string annotations are span runs
// (texts from the mapper's buffer, own texts and empty ones alike); the others keep their places,
// and expanded again the runs are the annotations the worker mapped.
TEST(CtfFrames, StretchesOfStringAnnotationsAreDecodedAsSpanRuns) {
    using namespace model;
    ctf::Chunk in;
    auto& events = in.events;
    events.emplace_back(Annotation{1, 0, 7, ChannelName{9, 5, "app:tick"}});
    events.emplace_back(Annotation{2, 1, 7, StringAnnotation{9, std::nullopt, {}}});  // alone
    events.emplace_back(CounterSample{3, 1, 3, 42, -1});
    events.emplace_back(Annotation{4, 1, 7, StringAnnotation{9, std::nullopt, {}}});
    events.emplace_back(Annotation{5, 0, 8, StringAnnotation{10, std::nullopt, "own"}});
    events.emplace_back(Annotation{6, 1, 7, StringAnnotation{9, std::nullopt, {}}});  // ends
    events.emplace_back(Annotation{7, 1, 7, StringAnnotation{9, std::nullopt, {}}});
    events.emplace_back(Annotation{8, 1, 7, StringAnnotation{9, Rgb{1, 2, 3}, {}}});
    events.emplace_back(Annotation{9, 1, 7, StringAnnotation{9, std::nullopt, {}}});  // ends
    events.emplace_back(Annotation{10, 1, 7, StringAnnotation{9, std::nullopt, {}}});
    for (const auto& [event, text] : std::vector<std::pair<std::size_t, std::string>>{
             {1, "a"}, {3, "b"}, {6, "c"}, {7, "d"}, {9, "e"}}) {
        in.texts.begin(event) += text;
        in.texts.end();
    }
    ctf::FrameBytes frame;
    ctf::encode_chunk(in, frame);
    ctf::Chunk out;
    Status st = ctf::decode_chunk(body_of(frame, FrameKind::Chunk), kKeys, out);
    ASSERT_TRUE(st) << st.error().to_string();
    // [channel] [single] [counter] [run of 4] [coloured] [run of 2]
    ASSERT_EQ(out.events.size(), 6U);
    const auto* run = std::get_if<SpanRun>(&out.events[3]);
    ASSERT_NE(run, nullptr);
    EXPECT_EQ(run->pending(), 4U);
    EXPECT_EQ(run->text(run->items[0]), "b");
    EXPECT_EQ(run->text(run->items[1]), "own");
    EXPECT_EQ(run->items[1].channel, 10);
    EXPECT_EQ(run->items[1].tid, 8);
    EXPECT_EQ(run->items[2].text_size, 0U);
    EXPECT_EQ(run->texts.size(), 5U);  // "b" "own" "c", nothing for the empty one
    EXPECT_EQ(text_of(out.events[1]), "a");
    ASSERT_NE(std::get_if<SpanRun>(&out.events[5]), nullptr);
    EXPECT_EQ(std::get<SpanRun>(out.events[5]).pending(), 2U);
    expect_same_events(out.events, with_texts(in.events, in.texts));
    expand_span_runs(out.events);
    ASSERT_EQ(out.events.size(), in.events.size());
    EXPECT_EQ(text_of(out.events[7]), "d");  // the coloured one's, from the mapper's buffer
    EXPECT_EQ(text_of(out.events[9]), "e");
}

TEST(CtfFrames, ProbeErrorAndEndRoundTrip) {
    ctf::ProbeResult p;
    p.traces = {"/t/kernel", "/t/ust/uid/0/64-bit"};
    p.rejected = {sample_error("not a CTF trace")};
    p.needs.irq = true;
    p.needs.sched = true;
    p.needs.perf.push_back(
        {{5, ctf::MemberRef::Type::Unsigned}, "CTF_perf_cycles", "cycles", true});
    p.needs.cores = 4;
    p.hostname = "board";
    p.cores = 4;
    p.range = ctf::TimeRange{100, 900};
    ctf::FrameBytes frame;
    ctf::encode_probe(p, frame);
    auto q = ctf::decode_probe(body_of(frame, FrameKind::Probe));
    ASSERT_TRUE(q) << q.error().to_string();
    EXPECT_EQ(q->traces, p.traces);
    ASSERT_EQ(q->rejected.size(), 1U);
    EXPECT_EQ(q->rejected[0].to_string(), p.rejected[0].to_string());
    EXPECT_TRUE(q->needs.irq);
    EXPECT_FALSE(q->needs.softirq);
    EXPECT_TRUE(q->needs.sched);
    ASSERT_EQ(q->needs.perf.size(), 1U);
    EXPECT_EQ(q->needs.perf[0].member.index, 5);
    EXPECT_EQ(q->needs.perf[0].member.type, ctf::MemberRef::Type::Unsigned);
    EXPECT_EQ(q->needs.perf[0].counter, "CTF_perf_cycles");
    EXPECT_EQ(q->needs.perf[0].label, "cycles");
    EXPECT_TRUE(q->needs.perf[0].per_thread);
    EXPECT_EQ(q->needs.cores, 4);
    EXPECT_EQ(q->hostname, "board");
    EXPECT_EQ(q->cores, 4);
    ASSERT_TRUE(q->range);
    EXPECT_EQ(q->range->begin, 100);
    EXPECT_EQ(q->range->end, 900);

    frame.clear();
    ctf::encode_error(sample_error("Cannot create the metadata AST"), frame);
    Error e;
    ASSERT_TRUE(ctf::decode_error(body_of(frame, FrameKind::Error), e));
    EXPECT_EQ(e.to_string(), sample_error("Cannot create the metadata AST").to_string());
    EXPECT_EQ(e.kind, ErrorKind::Malformed);  // the parent acts on it as on its own errors

    frame.clear();
    ctf::encode_end(frame);
    EXPECT_TRUE(body_of(frame, FrameKind::End).empty());
}

TEST(CtfFrames, EveryTruncationOfAFrameIsAnError) {
    ctf::FrameBytes chunk, probe, error;
    ctf::encode_chunk(sample_chunk(), chunk);
    ctf::ProbeResult p;
    p.traces = {"/t"};
    p.range = ctf::TimeRange{1, 2};
    ctf::encode_probe(p, probe);
    ctf::encode_error(sample_error("x"), error);
    ctf::Chunk out;
    Error e;
    for (std::size_t n = 0; n + 1 < chunk.size() - ctf::kFrameHeaderBytes; ++n) {
        const auto cut = std::span(chunk).subspan(ctf::kFrameHeaderBytes, n);
        EXPECT_FALSE(ctf::decode_chunk(cut, kKeys, out)) << n;
    }
    for (std::size_t n = 0; n + 1 < probe.size() - ctf::kFrameHeaderBytes; ++n)
        EXPECT_FALSE(ctf::decode_probe(std::span(probe).subspan(ctf::kFrameHeaderBytes, n))) << n;
    for (std::size_t n = 0; n + 1 < error.size() - ctf::kFrameHeaderBytes; ++n)
        EXPECT_FALSE(ctf::decode_error(std::span(error).subspan(ctf::kFrameHeaderBytes, n), e))
            << n;
    for (std::size_t n = 0; n < ctf::kFrameHeaderBytes; ++n)
        EXPECT_FALSE(ctf::decode_header(std::span(chunk).first(n))) << n;
}

std::vector<std::uint8_t> header(std::uint32_t length, std::uint8_t kind) {
    std::vector<std::uint8_t> h(ctf::kFrameHeaderBytes);
    std::memcpy(h.data(), &length, 4);
    h[4] = kind;
    return h;
}

TEST(CtfFrames, OversizedEmptyAndUnknownFramesAreErrors) {
    auto big = ctf::decode_header(header(ctf::kMaxFrameBytes + 1, 2));
    ASSERT_FALSE(big);
    EXPECT_EQ(big.error().field, "length");
    EXPECT_FALSE(ctf::decode_header(header(0, 2)));
    auto kind = ctf::decode_header(header(10, 9));
    ASSERT_FALSE(kind);
    EXPECT_EQ(kind.error().field, "kind");
    EXPECT_TRUE(ctf::decode_header(header(ctf::kMaxFrameBytes, 2)));
}

// The chunk frame of sample_chunk() with one change, decoded: the error's field and its offset
// in the body ("(decoded)" and 0 when there is none).
template <typename F>
std::pair<std::string, std::uint64_t> garbage_at(F change) {
    ctf::FrameBytes frame;
    ctf::encode_chunk(sample_chunk(), frame);
    std::vector<std::uint8_t> body(frame.begin() + ctf::kFrameHeaderBytes, frame.end());
    change(body);
    ctf::Chunk out;
    Status st = ctf::decode_chunk(body, kKeys, out);
    if (st) return {"(decoded)", 0};
    return {st.error().field, st.error().offset.value_or(~0ULL)};
}

// The same, the field alone.
template <typename F>
std::string garbage_field(F change) {
    return garbage_at(change).first;
}

// Where the events start in sample_chunk()'s body: after the counts.
std::size_t events_at(const std::vector<std::uint8_t>& body) {
    // The first event is the CounterSample: tag 1, ts 10.
    const std::uint8_t pattern[] = {1, 10, 0, 0, 0, 0, 0, 0, 0};
    auto it = std::search(body.begin(), body.end(), std::begin(pattern), std::end(pattern));
    EXPECT_NE(it, body.end());
    return static_cast<std::size_t>(it - body.begin());
}

// Where the text `text` of a string annotation starts in a chunk's body.
std::size_t run_text_at(const std::vector<std::uint8_t>& body, std::string_view text) {
    auto it = std::search(body.begin(), body.end(), text.begin(), text.end());
    EXPECT_NE(it, body.end());
    return static_cast<std::size_t>(it - body.begin());
}

TEST(CtfFrames, GarbageInAChunkIsAnErrorNamingTheField) {
    EXPECT_EQ(garbage_field([](auto&) {}), "(decoded)");
    EXPECT_EQ(garbage_field([](auto& b) { b[events_at(b)] = 99; }), "tag");
    // The CounterSample's key: 9 was never given to the worker.
    EXPECT_EQ(garbage_field([](auto& b) { b[events_at(b) + 13] = 9; }), "key");
    EXPECT_EQ(garbage_field([](auto& b) { b.push_back(0); }), "end");
    // The event count: far more events than the frame holds.
    EXPECT_EQ(garbage_field([](auto& b) { b[events_at(b) - 1] = 0x7f; }), "nevents");
    // The second text of the span run: longer than the frame, then 4 GiB less one byte (an
    // offset sum in 32 bits would wrap).
    EXPECT_EQ(garbage_field([](auto& b) { b[run_text_at(b, "own") - 1] = 0x7f; }), "text");
    EXPECT_EQ(garbage_field([](auto& b) {
                  std::fill_n(b.begin() + static_cast<long>(run_text_at(b, "own")) - 4, 4, 0xff);
              }),
              "text");
}

// Events are read unchecked when whole and valid (worker_frames_decode.cpp):
// a bad one is still reported where reading field by field stops, just after the bad field.
TEST(CtfFrames, GarbageIsReportedJustAfterTheBadField) {
    ctf::FrameBytes frame;
    ctf::encode_chunk(sample_chunk(), frame);
    const std::vector<std::uint8_t> good(frame.begin() + ctf::kFrameHeaderBytes, frame.end());
    const std::size_t at = events_at(good);
    using Got = std::pair<std::string, std::uint64_t>;
    EXPECT_EQ(garbage_at([&](auto& b) { b[at] = 99; }), Got("tag", at + 1));
    // The CounterSample: tag ts core key value pid (29 bytes); its key is 9 bytes after ts.
    EXPECT_EQ(garbage_at([&](auto& b) { b[at + 13] = 9; }), Got("key", at + 17));
    // The ActivitySwitch after it: its wait state, the last of its 29 bytes.
    EXPECT_EQ(garbage_at([&](auto& b) { b[at + 29 + 25] = 7; }), Got("wait", at + 29 + 29));
    // The ThreadName after that: a name longer than the frame, reported after its length.
    EXPECT_EQ(garbage_at([&](auto& b) { b[at + 58 + 20] = 0x7f; }), Got("name", at + 58 + 21));
    // The span run's second text, longer than the frame: the run ends before it, and it is
    // reported after its length, as any string is.
    const std::size_t own = run_text_at(good, "own");
    EXPECT_EQ(garbage_at([&](auto& b) { b[own - 1] = 0x7f; }), Got("text", own));
    // Its colour flag set: it is read as a coloured annotation, whose colour bytes then run into
    // the text's length (an "o" of 0x6f... bytes long).
    EXPECT_EQ(garbage_at([&](auto& b) { b[own - 5] = 1; }).first, "text");
    // Its tag: not a string annotation at all.
    EXPECT_EQ(garbage_at([&](auto& b) { b[own - 26] = 99; }), Got("tag", own - 25));
}

}  // namespace
}  // namespace apcgate::ctf_test
