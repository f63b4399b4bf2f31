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

void write_trace(const fs::path& dir,
                 const std::vector<std::pair<std::string, std::vector<Ev>>>& streams,
                 ClockAndSequence clock = {}, const std::string& hostname = "ctf-test-host") {
    std::vector<EventClass> classes;
    for (const auto& [file, events] : streams)
        for (const auto& e : events) classes.push_back({e.name, "int32_t i;"});
    CtfTraceWriter w(dir, classes, "ust", std::move(clock));
    w.set_hostname(hostname);
    std::uint32_t id = 0;
    std::uint32_t cpu = 0;
    for (const auto& [file, events] : streams) {
        std::vector<TraceEvent> packet;
        for (const auto& e : events) packet.push_back({id++, e.ts, Payload().i32(0)});
        w.packet(file, cpu++, 0, packet);
    }
    w.finish();
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
    fs::path root_;
};

TEST_F(MergeTest, StreamsAtTheSameTimesComeInBabeltracesOrder) {
    // Three streams (their files not in stream order) with events at 20 and 40 in all of them.
    write_trace(root_ / "t", {{"chan_2", {{"c5", 5}, {"c20", 20}, {"c40", 40}}},
                              {"chan_0", {{"a10", 10}, {"a20", 20}, {"a20b", 20}, {"a40", 40}}},
                              {"chan_1", {{"b20", 20}, {"b30", 30}, {"b40", 40}}}});
    const Reference ref = babeltrace_reference(root_ / "t");
    ASSERT_EQ(ref.exit_code, 0) << ref.stderr_text;
    ASSERT_EQ(ref.sequence.size(), 10U);
    const Merged m = merge({root_ / "t"});
    EXPECT_FALSE(m.failure) << m.failure->to_string();
    EXPECT_EQ(m.names, ref.sequence);
    // Not the order of the files, nor time alone: the ties are broken by stream.
    EXPECT_EQ(m.names.front(), "c5");
    EXPECT_EQ(m.names.back(), ref.sequence.back());
}

// libbabeltrace2 names a trace after its env hostname; the babeltrace2 CLI adds the trace's path
// below the directory it was given (its "trace-name" parameter), apcgate does not. Between
// traces of two hosts the order is babeltrace2's; between traces of one host it is the order
// of the trace directories.
TEST_F(MergeTest, TracesAtTheSameTimesComeInBabeltracesOrder) {
    write_trace(root_ / "in" / "t1", {{"chan_0", {{"z10", 10}, {"z20", 20}, {"z30", 30}}}}, {},
                "zeta-host");
    write_trace(root_ / "in" / "t2", {{"chan_0", {{"y10", 10}, {"y15", 15}, {"y30", 30}}}}, {},
                "alpha-host");
    const Reference ref = babeltrace_reference(root_ / "in");
    ASSERT_EQ(ref.exit_code, 0) << ref.stderr_text;
    const std::vector<std::string> by_host{"y10", "z10", "y15", "z20", "y30", "z30"};
    EXPECT_EQ(ref.sequence, by_host);
    const Merged m = merge({root_ / "in" / "t1", root_ / "in" / "t2"});
    EXPECT_FALSE(m.failure) << m.failure->to_string();
    EXPECT_EQ(m.names, by_host);
}

TEST_F(MergeTest, TracesOfOneHostAtTheSameTimesComeInTheOrderGiven) {
    write_trace(root_ / "in" / "zeta", {{"chan_0", {{"z10", 10}, {"z20", 20}}}});
    write_trace(root_ / "in" / "alpha", {{"chan_0", {{"y10", 10}, {"y20", 20}}}});
    const std::vector<std::string> given{"z10", "y10", "z20", "y20"};
    EXPECT_EQ(merge({root_ / "in" / "zeta", root_ / "in" / "alpha"}).names, given);
    const std::vector<std::string> reversed{"y10", "z10", "y20", "z20"};
    EXPECT_EQ(merge({root_ / "in" / "alpha", root_ / "in" / "zeta"}).names, reversed);
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
    ClockAndSequence a;
    a.uuid = "11111111-2222-3333-4444-555555555555";
    ClockAndSequence b;
    b.uuid = "99999999-2222-3333-4444-555555555555";
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
