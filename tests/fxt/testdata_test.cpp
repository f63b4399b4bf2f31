// The real archives in tests/data/fxt (see tests/data/README.md): every one converts, and the
// records read per kind are what their writers wrote. The fxt-cpp counts follow its test
// program (TestGeneralWrite: 2 process and 4 thread names, 7 duration begins and 7 ends, 2
// instants, 2 async begin/instant/end, 2 completes, one flow begin/step/end, 3 counters, a blob,
// a userspace object, 2 context switches and a wakeup) and its scheduling demo (8 threads of one
// process on 4 CPUs: 400 each of complete events, context switches and wakeups, 8 fiber
// switches, a buffer-full provider event at the end).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "collectors/fxt/record_kinds.hpp"
#include "source_runner.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::fxt_test {
namespace {

namespace kind = collectors::fxt::kind;
using Counts = std::map<std::string_view, std::uint64_t>;

const std::filesystem::path kDir =
    std::filesystem::path(apcgate::test_paths::testdata_dir()) / "fxt";

// Every kind's `read` count must be exactly as listed (kinds not listed: none read).
void expect_read(const SourceRun& run, const Counts& want) {
    Counts got;
    for (const auto& [k, s] : run.report().kinds())
        if (s.read > 0) got[std::string_view(k)] = s.read;
    for (const auto& [k, n] : want) EXPECT_EQ(got[k], n) << k;
    for (const auto& [k, n] : got)
        EXPECT_TRUE(want.count(k) == 1) << "unexpected kind " << k << " x" << n;
}

std::vector<std::string> texts(const SourceRun& run) {
    std::vector<std::string> out;
    for (const auto& [a, s] : run.annotations<model::StringAnnotation>())
        if (!s.text.empty()) out.push_back(s.text);
    return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(FxtTestdata, EveryArchiveConvertsInTimeOrder) {
    int files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(kDir)) {
        if (entry.path().extension() != ".fxt") continue;
        ++files;
        SCOPED_TRACE(entry.path().string());
        const auto run = run_path(entry.path());
        ASSERT_TRUE(run->source);
        const bool corrupted = entry.path().filename() == "perfetto_CorruptedFxt_1.fxt";
        EXPECT_EQ(run->report().complete(), !corrupted);
        if (!corrupted) {
            EXPECT_EQ(run->report().bytes_done, run->report().bytes_total);
        }
        EXPECT_EQ(run->report().problem_count(), corrupted ? 1U : 0U);
        if (!corrupted) {
            EXPECT_FALSE(run->events.empty());
        }
        expect_time_order(*run);
    }
    EXPECT_EQ(files, 11);
}

TEST(FxtTestdata, FxtCppGeneral) {
    const auto run = run_path(kDir / "fxtcpp_general.fxt");
    expect_read(
        *run,
        {{kind::kMagic, 1},          {kind::kProviderInfo, 1},     {kind::kProviderSection, 1},
         {kind::kInitialization, 1}, {kind::kString, 28},          {kind::kKernelObject, 6},
         {kind::kThread, 4},         {kind::kDurationBegin, 7},    {kind::kDurationEnd, 7},
         {kind::kInstant, 2},        {kind::kAsyncBegin, 2},       {kind::kAsyncInstant, 2},
         {kind::kAsyncEnd, 2},       {kind::kDurationComplete, 2}, {kind::kFlowBegin, 1},
         {kind::kFlowStep, 1},       {kind::kFlowEnd, 1},          {kind::kCounter, 3},
         {kind::kBlob, 1},           {kind::kUserspaceObject, 1},  {kind::kContextSwitch, 2},
         {kind::kThreadWakeup, 1}});
    EXPECT_EQ(run->stats(kind::kBlob).skipped, 1U);
    EXPECT_EQ(run->stats(kind::kThreadWakeup).skipped, 1U);
    EXPECT_EQ(run->target.name, "Test Provider");
    // Names: two processes, four threads.
    std::map<std::int32_t, std::string> names;
    for (const auto& n : run->all<model::ThreadName>()) names[n.tid] = n.name;
    EXPECT_EQ(names, (std::map<std::int32_t, std::string>{
                         {45, "Main"}, {87, "Worker0"}, {26, "Worker1"}, {50, "ServerThread"}}));
    for (const auto& c : run->all<model::ProcComm>())
        EXPECT_EQ(c.image, c.pid == 3 ? "Test.exe" : "Server.exe") << c.tid;
    // Counters: one per (event, argument), values as written.
    EXPECT_EQ(run->values("FXT_CounterA_int_arg"), (std::vector<std::int64_t>{111, 784, 333}));
    EXPECT_EQ(run->values("FXT_CounterA_uint_arg"), (std::vector<std::int64_t>{984, 561, 845}));
    // Context switches on CPU 3 (1 tick = 1 ms here; the origin is the first event at 200).
    const auto sw = run->all<model::ActivitySwitch>();
    ASSERT_EQ(sw.size(), 2U);
    EXPECT_EQ(sw[0].core, 3);
    EXPECT_EQ(sw[0].tid, 87);
    EXPECT_EQ(sw[0].ts, 50'000'000);
    EXPECT_EQ(sw[1].tid, 45);
    // Spans, async, flows and instants as texts.
    const auto t = texts(*run);
    for (const char* s :
         {"Foo:Root", "Foo:Inner", "OtherService:DoStuff", "Asdf:AsyncThing",
          "OtherThing:EventHappened", "Asdf:AsyncInstant (async 111)", "CategoryA:AwesomeFlow",
          "CategoryA:Server request handler", "Asdf:AsyncThing2", "Asdf:AsyncInstant2 (async 222)"})
        EXPECT_TRUE(has(t, s)) << s;
    expect_time_order(*run);
}

TEST(FxtTestdata, FxtCppSched) {
    const auto run = run_path(kDir / "fxtcpp_sched.fxt");
    expect_read(*run, {{kind::kMagic, 1},
                       {kind::kProviderInfo, 1},
                       {kind::kProviderSection, 1},
                       {kind::kInitialization, 1},
                       {kind::kString, 11},
                       {kind::kKernelObject, 9},
                       {kind::kThread, 8},
                       {kind::kDurationComplete, 400},
                       {kind::kContextSwitch, 400},
                       {kind::kThreadWakeup, 400},
                       {kind::kFiberSwitch, 8},
                       {kind::kProviderEvent, 1}});
    EXPECT_EQ(run->all<model::ActivitySwitch>().size(), 400U);
    EXPECT_EQ(run->all<model::ThreadName>().size(), 8U);
    EXPECT_EQ(run->catalog.find("FXT_cpu_activity")->cores, 4);
    // 400 complete spans: 400 opens and 400 closes.
    std::size_t opens = 0, closes = 0;
    for (const auto& [a, s] : run->annotations<model::StringAnnotation>())
        (s.text.empty() ? closes : opens)++;
    EXPECT_EQ(opens, 400U);
    EXPECT_EQ(closes, 400U);
    const auto markers = run->annotations<model::MarkerAnnotation>();
    ASSERT_EQ(markers.size(), 1U);
    EXPECT_NE(markers[0].second.text.find("buffer full"), std::string::npos);
    // 19.2 MHz ticks: the first record with a timestamp, a wakeup, is at tick 5000.
    EXPECT_EQ(run->source->time_origin(), 5000LL * 1'000'000'000 / 19'200'000);
    expect_time_order(*run);
}

TEST(FxtTestdata, FtfrsSample) {
    const auto run = run_path(kDir / "ftfrs_sample.fxt");
    expect_read(*run, {{kind::kMagic, 1},
                       {kind::kInitialization, 1},
                       {kind::kProviderInfo, 1},
                       {kind::kString, 6},
                       {kind::kThread, 1},
                       {kind::kInstant, 2},
                       {kind::kCounter, 1},
                       {kind::kDurationBegin, 1},
                       {kind::kDurationEnd, 1},
                       {kind::kDurationComplete, 1}});
    EXPECT_EQ(run->values("FXT_fps_count"), (std::vector<std::int64_t>{60}));
    const auto t = texts(*run);
    EXPECT_TRUE(has(t, "rendering:frame_presented frame_number=42 render_time_ms=16.7"));
    EXPECT_TRUE(has(t, "database:query size=large timeout_ms=5000 query_type=SELECT"));
    EXPECT_TRUE(has(t,
                    "network:http_request buffer_ptr=0xdeadbeef connection_id=305419896 size=1024 "
                    "status_code=200"));
    EXPECT_TRUE(has(t, "system:boot_complete initialized boot_time_ms=1253"));
    expect_time_order(*run);
}

TEST(FxtTestdata, PerfettoVectors) {
    const auto dir = kDir / "perfetto_unittest_vectors";
    const auto corrupted = run_path(dir / "perfetto_CorruptedFxt_1.fxt");
    expect_read(*corrupted, {{kind::kMagic, 1}});
    ASSERT_TRUE(corrupted->report().stop_reason());
    EXPECT_EQ(corrupted->report().stop_reason()->offset, std::optional<std::uint64_t>(8));
    EXPECT_EQ(corrupted->report().stop_reason()->record, kind::kMagic);

    const auto sched = run_path(dir / "perfetto_SchedulerEvents_1.fxt");
    expect_read(*sched, {{kind::kMagic, 1}, {kind::kThreadWakeup, 1}, {kind::kContextSwitch, 2}});
    const auto sw = sched->all<model::ActivitySwitch>();
    ASSERT_EQ(sw.size(), 2U);
    EXPECT_EQ(sw[0].core, 1);
    EXPECT_NE(sw[0].tid, sw[1].tid);  // koids 0x2ccc... and 0x1aaa... as distinct 32-bit ids
    EXPECT_GT(sw[0].tid, 0);

    const auto legacy = run_path(dir / "perfetto_LegacySchedulerEvents_1.fxt");
    expect_read(*legacy, {{kind::kMagic, 1}, {kind::kLegacyContextSwitch, 3}});
    const auto lsw = legacy->all<model::ActivitySwitch>();
    ASSERT_EQ(lsw.size(), 3U);
    EXPECT_EQ(lsw[0].tid, lsw[2].tid);
    EXPECT_NE(lsw[0].tid, lsw[1].tid);

    const auto flows = run_path(dir / "perfetto_AmbiguousFlowEvents_1.fxt");
    expect_read(*flows, {{kind::kMagic, 1},
                         {kind::kDurationBegin, 4},
                         {kind::kDurationEnd, 4},
                         {kind::kFlowBegin, 2},
                         {kind::kFlowEnd, 2}});
    EXPECT_EQ(flows->stats(kind::kUnmatchedAsyncEnd).skipped, 1U);  // two ends of flow 100

    for (const char* f : {"perfetto_FlowEvents_1.fxt", "perfetto_CrossProcessFlowEvents_1.fxt"}) {
        const auto run = run_path(dir / f);
        expect_read(*run, {{kind::kMagic, 1},
                           {kind::kDurationBegin, 2},
                           {kind::kDurationEnd, 2},
                           {kind::kFlowBegin, 1},
                           {kind::kFlowEnd, 1}});
        EXPECT_EQ(run->stats(kind::kUnmatchedAsyncEnd).skipped, 0U) << f;
    }

    const auto inline_instant = run_path(dir / "perfetto_InlineInstantEvent_1.fxt");
    expect_read(*inline_instant, {{kind::kMagic, 1}, {kind::kInstant, 1}});
    EXPECT_EQ(inline_instant->source->time_origin(), 0x5555555555555555LL);

    const auto booleans = run_path(dir / "perfetto_BooleanArguments_1.fxt");
    expect_read(*booleans, {{kind::kMagic, 1}, {kind::kInstant, 1}});
    const auto bt = texts(*booleans);
    ASSERT_EQ(bt.size(), 1U);
    EXPECT_NE(bt[0].find("=true"), std::string::npos);
}

}  // namespace
}  // namespace apcgate::fxt_test
