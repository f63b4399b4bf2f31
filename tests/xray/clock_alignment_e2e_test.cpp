// An XRay log and an LTTng-UST trace of one run, converted together, on one timeline: the
// program (workload/xray_lttng_workload.cpp) logs an LTTng event halfway through each XRay-
// instrumented call, and in the capture each event must lie inside its call's span. Before the
// inputs' clocks were related (both through CLOCK_MONOTONIC) they sat 56 years apart: the log's
// TSC counts from boot, the trace's clock from 1970.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "daemon_process.hpp"
#include "lttng_session.hpp"
#include "spans_from_capture.hpp"
#include "workload_logs.hpp"

namespace apcgate::xray_test {
namespace {

struct Interval {
    model::Nanos begin = 0;
    model::Nanos end = 0;
};

// The span of each call to marked() in order, and the time of each "halfway N" annotation.
struct Timeline {
    std::vector<Interval> calls;
    std::map<int, model::Nanos> halfway;
};

Timeline timeline_of(const std::vector<model::Event>& events) {
    Timeline t;
    std::map<std::pair<std::int32_t, std::int32_t>, std::size_t> open;  // (tid, channel) -> call
    for (const auto& e : events) {
        const auto* a = std::get_if<model::Annotation>(&e);
        const auto* s = a ? std::get_if<model::StringAnnotation>(&a->body) : nullptr;
        if (s == nullptr) continue;
        const auto key = std::make_pair(a->tid, s->channel);
        if (s->text.rfind("marked", 0) == 0) {
            open[key] = t.calls.size();
            t.calls.push_back({a->ts, -1});
        } else if (s->text.rfind("halfway ", 0) == 0) {
            t.halfway[std::stoi(s->text.substr(8))] = a->ts;
        } else if (s->text.empty()) {
            if (auto it = open.find(key); it != open.end()) {
                t.calls[it->second].end = a->ts;
                open.erase(it);
            }
        }
    }
    return t;
}

TEST(XrayWithLttng, EventsOfOneRunFallInsideTheirCalls) {
    if (const auto why = ctf_test::lttng_unavailable(); !why.empty()) GTEST_SKIP() << why;
    const auto program = build_instrumented("xray_lttng_workload.cpp", "-llttng-ust -ldl");
    if (!program) GTEST_SKIP() << "needs clang-14, its XRay runtime and liblttng-ust-dev";
    const auto dir = e2e::temp_dir("xray-lttng");  // removed when the test process ends
    const auto logs = dir / "logs";
    std::filesystem::create_directories(logs);
    constexpr int kCalls = 20;
    const auto trace = ctf_test::make_ust_trace(
        dir / "trace",
        {"env",
         "XRAY_OPTIONS=patch_premain=false verbosity=0 xray_logfile_base=" + logs.string() + "/",
         program->string(), std::to_string(kCalls)},
        {});
    ASSERT_TRUE(trace) << trace.error().to_string();
    std::vector<std::filesystem::path> found;
    for (const auto& f : std::filesystem::directory_iterator(logs)) found.push_back(f.path());
    ASSERT_EQ(found.size(), 1U);

    const auto out = dir / "out.apc";
    const auto [rc, output] =
        e2e::run_apcgate({"convert", found[0].string(), (dir / "trace").string(), "-o",
                          out.string(), "--binary", program->string(), "--json"});
    ASSERT_EQ(rc, 0) << output;
    const auto report = nlohmann::json::parse(output.substr(output.find('{')));
    EXPECT_EQ(report["timeline"]["clock"], "CLOCK_MONOTONIC");
    EXPECT_TRUE(report["timeline"]["notes"].empty()) << output;
    for (const auto& in : report["inputs"]) EXPECT_EQ(in["placed_by"], "CLOCK_MONOTONIC") << in;

    const auto content = read_capture(out.string());
    ASSERT_TRUE(content.error.empty()) << content.error;
    const Timeline t = timeline_of(content.events);
    ASSERT_EQ(t.calls.size(), static_cast<std::size_t>(kCalls));
    ASSERT_EQ(t.halfway.size(), static_cast<std::size_t>(kCalls));
    for (int i = 0; i < kCalls; ++i) {
        const Interval call = t.calls[static_cast<std::size_t>(i)];
        const model::Nanos event = t.halfway.at(i);
        // The event is 0.5 ms into a 1 ms call; the clocks' relation is good to microseconds.
        EXPECT_GT(event, call.begin + 100'000) << "call " << i;
        EXPECT_LT(event, call.end - 100'000) << "call " << i;
    }
    // Both inputs annotate the program's threads and each numbers its groups and channels from
    // 1: in the capture every id names one thing.
    std::map<std::int32_t, std::set<std::string>> groups, channels;
    for (const auto& e : content.events) {
        const auto* a = std::get_if<model::Annotation>(&e);
        if (a == nullptr) continue;
        if (const auto* g = std::get_if<model::GroupName>(&a->body))
            groups[g->group].insert(g->name);
        if (const auto* c = std::get_if<model::ChannelName>(&a->body))
            channels[c->channel].insert(std::to_string(c->group) + "/" + c->name);
    }
    EXPECT_GE(groups.size(), 2U);
    for (const auto& [id, names] : groups) EXPECT_EQ(names.size(), 1U) << "group " << id;
    for (const auto& [id, names] : channels) EXPECT_EQ(names.size(), 1U) << "channel " << id;
}

}  // namespace
}  // namespace apcgate::xray_test
