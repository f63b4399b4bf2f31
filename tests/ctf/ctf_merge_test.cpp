// The merge of the trace streams (collectors/ctf/stream_merge.hpp) against the babeltrace2 CLI,
// whose filter.utils.muxer it stands in for: on hand-made traces whose streams have events at
// the same times (within one trace and across traces), whose stream goes back in time, and whose
// traces' clocks cannot be related, the graph hands on the events babeltrace2 prints, in the
// order it prints them, and fails where it fails.
#include <babeltrace2/babeltrace.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "babeltrace_reference.hpp"
#include "collectors/ctf/trace_graph.hpp"
#include "ctf_run.hpp"
#include "ctf_trace_writer.hpp"

namespace apcgate::ctf_test {
namespace {

namespace fs = std::filesystem;
using collectors::ctf::MessageHandler;
using collectors::ctf::TraceGraph;

// The names of the events the graph hands on, in order.
class EventNames : public MessageHandler {
  public:
    void on_messages(const bt_message* const* messages, std::uint64_t count) override {
        for (std::uint64_t i = 0; i < count; ++i) {
            if (bt_message_get_type(messages[i]) != BT_MESSAGE_TYPE_EVENT) continue;
            names.emplace_back(bt_event_class_get_name(
                bt_event_borrow_class_const(bt_message_event_borrow_event_const(messages[i]))));
        }
    }
    std::vector<std::string> names;
};

struct Merged {
    std::vector<std::string> names;
    std::optional<Error> failure;
};

Merged merge(const std::vector<fs::path>& traces) {
    EventNames handler;
    std::vector<Error> rejected;
    auto graph = TraceGraph::open(traces, handler, rejected);
    EXPECT_TRUE(graph) << graph.error().to_string();
    EXPECT_TRUE(rejected.empty());
    Merged m;
    if (!graph) return m;
    TraceGraph::Step step = TraceGraph::Step::Messages;
    while ((step = (*graph)->step()) == TraceGraph::Step::Messages) {
    }
    if (step == TraceGraph::Step::Failed) m.failure = (*graph)->failure();
    m.names = std::move(handler.names);
    return m;
}

// Events named after their stream and place, so an order says where each came from.
struct Ev {
    std::string name;
    std::uint64_t ts;
};

struct Stream {
    std::string file;
    std::vector<Ev> events;
    std::uint64_t instance_id = 0;  // written when the trace has stream instance ids
};

struct Layout {
    ClockAndSequence clock;
    std::string hostname = "ctf-test-host";
    std::string trace_uuid;
    bool instance_ids = false;
    bool clockless = false;
    std::size_t per_packet = 20;
};

void write_trace(const fs::path& dir, const std::vector<Stream>& streams,
                 const Layout& layout = {}) {
    std::vector<EventClass> classes;
    for (const auto& st : streams)
        for (const auto& e : st.events) classes.push_back({e.name, "int32_t i;"});
    CtfTraceWriter w(dir, classes, "ust", layout.clock);
    w.set_hostname(layout.hostname);
    if (!layout.trace_uuid.empty()) w.set_trace_uuid(layout.trace_uuid);
    if (layout.clockless) w.set_clockless();
    if (layout.instance_ids)
        for (const auto& st : streams) w.set_stream_instance_id(st.file, st.instance_id);
    std::uint32_t id = 0;
    std::uint32_t cpu = 0;
    for (const auto& st : streams) {
        std::vector<TraceEvent> packet;
        for (const auto& e : st.events) {
            packet.push_back({id++, e.ts, Payload().i32(0)});
            if (packet.size() == layout.per_packet) {
                w.packet(st.file, cpu, 0, packet);
                packet.clear();
            }
        }
        if (!packet.empty()) w.packet(st.file, cpu, 0, packet);
        ++cpu;
    }
    w.finish();
}

// `n` events named PREFIX0.. at 0, 0, 10, 10, 20, ...: every time twice in each stream.
std::vector<Ev> pairs(const std::string& prefix, int n) {
    std::vector<Ev> out;
    out.reserve(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j)
        out.push_back({prefix + std::to_string(j), static_cast<std::uint64_t>(10 * (j / 2))});
    return out;
}

class MergeTest : public testing::Test {
  protected:
    void SetUp() override {
        if (!babeltrace_available()) GTEST_SKIP() << "babeltrace2 is not installed";
        root_ = scratch_dir("merge");
    }
    void TearDown() override {
        if (!root_.empty()) fs::remove_all(root_);
    }
    // The merge of the trace `dir` hands on what babeltrace2 prints for it, `count` events, in
    // its order; returns the names.
    std::vector<std::string> expect_babeltraces_order(const fs::path& dir, std::size_t count) {
        const Reference ref = babeltrace_reference(dir);
        EXPECT_EQ(ref.exit_code, 0) << ref.stderr_text;
        EXPECT_EQ(ref.sequence.size(), count);
        Merged m = merge({dir});
        EXPECT_FALSE(m.failure) << m.failure->to_string();
        EXPECT_EQ(m.names, ref.sequence);
        return std::move(m.names);
    }

    fs::path root_;
};

TEST_F(MergeTest, StreamsAtTheSameTimesComeInBabeltracesOrder) {
    // Three streams of 40 events in packets of 20 (more than one of libbabeltrace2's batches of
    // 15), every time in all of them, the stream ids the reverse of the files' (and ports')
    // order: a tie goes to the lower stream id.
    Layout layout;
    layout.instance_ids = true;
    write_trace(root_ / "t",
                {{"chan_0", pairs("a", 40), 2},
                 {"chan_1", pairs("b", 40), 1},
                 {"chan_2", pairs("c", 40), 0}},
                layout);
    const auto names = expect_babeltraces_order(root_ / "t", 120);
    const std::vector<std::string> first{"c0", "c1", "b0", "b1", "a0", "a1", "c2", "c3"};
    ASSERT_GE(names.size(), first.size());
    EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 8), first);
}

// libbabeltrace2 names a trace after its env hostname; the babeltrace2 CLI adds the trace's path
// below the directory it was given (its "trace-name" parameter), apcgate does not. Between
// traces of two hosts the order is babeltrace2's; between traces of one host it is the order
// of the trace directories.
TEST_F(MergeTest, TracesAtTheSameTimesComeInBabeltracesOrder) {
    Layout zeta;
    zeta.hostname = "zeta-host";
    Layout alpha;
    alpha.hostname = "alpha-host";
    write_trace(root_ / "in" / "t1", {{"chan_0", {{"z10", 10}, {"z20", 20}, {"z30", 30}}}}, zeta);
    write_trace(root_ / "in" / "t2", {{"chan_0", {{"y10", 10}, {"y15", 15}, {"y30", 30}}}}, alpha);
    const Reference ref = babeltrace_reference(root_ / "in");
    ASSERT_EQ(ref.exit_code, 0) << ref.stderr_text;
    const std::vector<std::string> by_host{"y10", "z10", "y15", "z20", "y30", "z30"};
    EXPECT_EQ(ref.sequence, by_host);
    const Merged m = merge({root_ / "in" / "t1", root_ / "in" / "t2"});
    EXPECT_FALSE(m.failure) << m.failure->to_string();
    EXPECT_EQ(m.names, by_host);
}

TEST_F(MergeTest, TraceUuidsComeBeforeHostNames) {
    Layout alpha;
    alpha.hostname = "alpha-host";
    alpha.trace_uuid = "ffffffff-2222-3333-4444-555555555555";
    Layout zeta;
    zeta.hostname = "zeta-host";
    zeta.trace_uuid = "00000000-2222-3333-4444-555555555555";
    write_trace(root_ / "in" / "t1", {{"chan_0", {{"y10", 10}, {"y20", 20}}}}, alpha);
    write_trace(root_ / "in" / "t2", {{"chan_0", {{"z10", 10}, {"z20", 20}}}}, zeta);
    const Reference ref = babeltrace_reference(root_ / "in");
    ASSERT_EQ(ref.exit_code, 0) << ref.stderr_text;
    const std::vector<std::string> by_uuid{"z10", "y10", "z20", "y20"};
    EXPECT_EQ(ref.sequence, by_uuid);
    const Merged m = merge({root_ / "in" / "t1", root_ / "in" / "t2"});
    EXPECT_FALSE(m.failure) << m.failure->to_string();
    EXPECT_EQ(m.names, by_uuid);
}

TEST_F(MergeTest, TracesOfOneHostAtTheSameTimesComeInTheOrderGiven) {
    write_trace(root_ / "in" / "zeta", {{"chan_0", {{"z10", 10}, {"z20", 20}}}});
    write_trace(root_ / "in" / "alpha", {{"chan_0", {{"y10", 10}, {"y20", 20}}}});
    const std::vector<std::string> given{"z10", "y10", "z20", "y20"};
    EXPECT_EQ(merge({root_ / "in" / "zeta", root_ / "in" / "alpha"}).names, given);
    const std::vector<std::string> reversed{"y10", "z10", "y20", "z20"};
    EXPECT_EQ(merge({root_ / "in" / "alpha", root_ / "in" / "zeta"}).names, reversed);
}

TEST_F(MergeTest, StreamsWithoutAClockComeInBabeltracesOrder) {
    // No message has a time: each is "now", and the lower stream id goes first every time.
    Layout layout;
    layout.clockless = true;
    layout.instance_ids = true;
    write_trace(root_ / "t", {{"chan_0", pairs("a", 30), 1}, {"chan_1", pairs("b", 30), 0}},
                layout);
    const auto names = expect_babeltraces_order(root_ / "t", 60);
    ASSERT_FALSE(names.empty());
    EXPECT_EQ(names.front(), "b0");
}

TEST_F(MergeTest, AStreamGoingBackInTimeStopsWhereBabeltraceStops) {
    write_trace(root_ / "t", {{"chan_0", {{"e10", 10}, {"e50", 50}, {"e40", 40}, {"e60", 60}}},
                              {"chan_1", {{"f20", 20}, {"f70", 70}}}});
    const Reference ref = babeltrace_reference(root_ / "t");
    EXPECT_NE(ref.exit_code, 0);
    const Merged m = merge({root_ / "t"});
    ASSERT_TRUE(m.failure);
    EXPECT_TRUE(m.failure->is(ErrorKind::Malformed));
    EXPECT_NE(m.failure->message.find("time goes back"), std::string::npos) << m.failure->message;
    EXPECT_NE(m.failure->message.find("stream 0 (class 0)"), std::string::npos)
        << m.failure->message;
    // What came before is handed on, as babeltrace2 prints it.
    const std::vector<std::string> before{"e10", "f20", "e50"};
    EXPECT_EQ(m.names, before);
    EXPECT_EQ(ref.sequence, before);
}

TEST_F(MergeTest, TracesWhoseClocksCannotBeRelatedAreRefusedAsBabeltraceRefusesThem) {
    Layout a;
    a.clock.uuid = "11111111-2222-3333-4444-555555555555";
    Layout b;
    b.clock.uuid = "99999999-2222-3333-4444-555555555555";
    write_trace(root_ / "in" / "a", {{"chan_0", {{"a10", 10}}}}, a);
    write_trace(root_ / "in" / "b", {{"chan_0", {{"b10", 10}}}}, b);
    const Reference ref = babeltrace_reference(root_ / "in");
    EXPECT_NE(ref.exit_code, 0);
    EXPECT_TRUE(ref.sequence.empty());
    const Merged m = merge({root_ / "in" / "a", root_ / "in" / "b"});
    ASSERT_TRUE(m.failure);
    EXPECT_TRUE(m.failure->is(ErrorKind::Malformed));
    EXPECT_NE(m.failure->message.find("a clock other than the first stream's"), std::string::npos)
        << m.failure->message;
    EXPECT_TRUE(m.names.empty());
}

}  // namespace
}  // namespace apcgate::ctf_test
