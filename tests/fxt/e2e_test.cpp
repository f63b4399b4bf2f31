// The real apcgate binary on the shared archives and on an archive this test writes:
// `convert` then `inspect --json` (counts per message kind, counters, threads), the capture
// decoded back to model events and compared with the in-process source's, exit 3 with the
// capture still written for a damaged archive, and `serve --source fxt:PATH` streamed to a host
// client until the capture ends by itself.
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "capture_check.hpp"
#include "daemon_process.hpp"
#include "fxt_writer.hpp"
#include "host_client.hpp"
#include "protocol/apc/capture_stream.hpp"
#include "source_runner.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::e2e {
namespace {

const std::filesystem::path kDir =
    std::filesystem::path(apcgate::test_paths::testdata_dir()) / "fxt";

nlohmann::json json_of(const std::string& output) {
    const auto start = output.find('{');
    if (start == std::string::npos) return {};
    return nlohmann::json::parse(output.substr(start), nullptr, false);
}

std::vector<std::uint8_t> read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// Per thread, the texts of its string annotations in order: what Streamline shows per thread.
using PerThread = std::map<std::int32_t, std::vector<std::string>>;
PerThread texts_per_thread(const std::vector<model::Event>& events) {
    PerThread out;
    for (const auto& e : events) {
        const auto* a = std::get_if<model::Annotation>(&e);
        if (a == nullptr) continue;
        if (const auto* s = std::get_if<model::StringAnnotation>(&a->body))
            out[a->tid].push_back(s->text);
    }
    return out;
}

struct Converted {
    int exit = -1;
    std::string output;
    std::filesystem::path dir;
};

Converted convert(const std::filesystem::path& input, const std::string& name) {
    Converted c;
    c.dir = temp_dir("fxt_convert") / (name + ".apc");
    std::tie(c.exit, c.output) =
        run_apcgate({"convert", input.string(), "-o", c.dir.string(), "--json"});
    return c;
}

TEST(FxtEndToEnd, ConvertThenInspectTheGeneralArchive) {
    const auto input = kDir / "fxtcpp_general.fxt";
    const Converted c = convert(input, "general");
    ASSERT_EQ(c.exit, 0) << c.output;
    const auto report = json_of(c.output);
    ASSERT_TRUE(report.is_object()) << c.output;
    EXPECT_TRUE(report["complete"].get<bool>());
    EXPECT_EQ(report["inputs"][0]["format"], "fxt");
    EXPECT_EQ(report["inputs"][0]["records"]["duration begin"]["read"], 7);

    const auto [rc, out] = run_apcgate({"inspect", c.dir.string(), "--json"});
    ASSERT_EQ(rc, 0) << out;
    const auto j = json_of(out);
    ASSERT_TRUE(j.is_object()) << out;
    EXPECT_TRUE(j["valid"].get<bool>());
    EXPECT_EQ(j["messages"]["ActivitySwitch"], 2);
    EXPECT_EQ(j["messages"]["ThreadName"], 4);
    EXPECT_EQ(j["threads"]["45"], "Main");
    EXPECT_EQ(j["target"]["name"], "Test Provider");
    std::map<std::string, int> values;
    for (const auto& counter : j["counters"]) values[counter["type"]] = counter["values"];
    EXPECT_EQ(values["FXT_CounterA_int_arg"], 3);
    EXPECT_EQ(values["FXT_CounterA_uint_arg"], 3);

    // The capture decodes back to the events the source gave, thread by thread.
    const auto data = read_file(c.dir / "0000000000");
    const auto decoded = apc::decode_capture(data);
    ASSERT_FALSE(decoded.error) << decoded.error->to_string();
    auto rebuilt = apc::rebuild_events(decoded.frames);
    ASSERT_TRUE(rebuilt.ok());
    const auto direct = fxt_test::run_path(input);
    EXPECT_EQ(texts_per_thread(*rebuilt), texts_per_thread(direct->events));
}

// Every archive becomes a capture `inspect` accepts, with its Activity, Counter or Block
// Counter message ("Required Messages"): half of them hold no context switch and no counter;
// every capture of them holds the capture's own event rate.
TEST(FxtEndToEnd, EveryArchiveBecomesAValidCapture) {
    int files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(kDir)) {
        if (entry.path().extension() != ".fxt") continue;
        ++files;
        SCOPED_TRACE(entry.path().string());
        const Converted c = convert(entry.path(), "every" + std::to_string(files));
        ASSERT_TRUE(std::filesystem::exists(c.dir / "0000000000")) << c.output;
        const auto [rc, out] = run_apcgate({"inspect", c.dir.string(), "--json"});
        EXPECT_EQ(rc, 0) << out;
        const auto j = json_of(out);
        EXPECT_TRUE(j["valid"].get<bool>()) << out;
        bool own = false;
        for (const auto& counter : j["counters"])
            own = own || (counter["type"] == "apcgate_events" && counter["values"] > 0);
        EXPECT_TRUE(own) << out;
    }
    EXPECT_EQ(files, 11);
}

TEST(FxtEndToEnd, ConvertTheSchedulingArchiveAndAHandBuiltOne) {
    const Converted sched = convert(kDir / "fxtcpp_sched.fxt", "sched");
    ASSERT_EQ(sched.exit, 0) << sched.output;
    auto [rc, out] = run_apcgate({"inspect", sched.dir.string(), "--json"});
    ASSERT_EQ(rc, 0) << out;
    auto j = json_of(out);
    EXPECT_EQ(j["messages"]["ActivitySwitch"], 400);
    EXPECT_EQ(j["target"]["cores"], 4);

    fxt_test::FxtWriter w;
    w.magic();
    w.provider_info(1, "made here");
    w.provider_section(1);
    w.kernel_object(10, 1, fxt_test::inl("proc"));
    w.kernel_object(11, 2, fxt_test::inl("worker"),
                    {fxt_test::arg_koid(fxt_test::inl("process"), 10)});
    for (std::uint64_t i = 0; i < 50; ++i) {
        w.event(2, 100 * i, fxt_test::inline_thread(10, 11), fxt_test::inl("c"),
                fxt_test::inl("work"));
        w.log(100 * i + 10, fxt_test::inline_thread(10, 11), "a log line");
        w.event(1, 100 * i + 20, fxt_test::inline_thread(10, 11), {}, fxt_test::inl("load"),
                {fxt_test::arg_double(fxt_test::inl("value"), 0.5 * static_cast<double>(i))}, 1);
        w.event(3, 100 * i + 50, fxt_test::inline_thread(10, 11), fxt_test::inl("c"),
                fxt_test::inl("work"));
    }
    const auto path = fxt_test::write_temp("made_here.fxt", w.bytes());
    const Converted made = convert(path, "made");
    ASSERT_EQ(made.exit, 0) << made.output;
    std::tie(rc, out) = run_apcgate({"inspect", made.dir.string(), "--json"});
    ASSERT_EQ(rc, 0) << out;
    j = json_of(out);
    EXPECT_EQ(j["threads"]["11"], "worker");
    // The archive's one counter, and the capture's own event rate.
    ASSERT_EQ(j["counters"].size(), 2U);
    EXPECT_EQ(j["counters"][0]["type"], "FXT_load_value");
    EXPECT_EQ(j["counters"][0]["values"], 50);
    EXPECT_EQ(j["counters"][0]["max"], 24'500'000);  // 24.5, sent with 6 decimals
    EXPECT_EQ(j["counters"][1]["type"], "apcgate_events");
    // 50 spans and 50 notes: each an open and a close, plus group and channel names.
    EXPECT_GE(j["messages"]["Annotate"].get<int>(), 200);
}

TEST(FxtEndToEnd, DamagedArchiveExitsThreeAndKeepsTheCapture) {
    const Converted c =
        convert(kDir / "perfetto_unittest_vectors" / "perfetto_CorruptedFxt_1.fxt", "corrupt");
    EXPECT_EQ(c.exit, 3) << c.output;
    const auto report = json_of(c.output);
    EXPECT_FALSE(report["complete"].get<bool>());
    EXPECT_EQ(report["inputs"][0]["stopped"]["offset"], 8);
    EXPECT_EQ(report["inputs"][0]["stopped"]["record"], "magic number");
    EXPECT_TRUE(std::filesystem::exists(c.dir / "0000000000"));
    const auto [rc, out] = run_apcgate({"inspect", c.dir.string()});
    EXPECT_EQ(rc, 0) << out;

    // A truncated tail: what came before it is in the capture.
    auto bytes = read_file(kDir / "fxtcpp_general.fxt");
    bytes.resize(bytes.size() - 20);
    const Converted cut = convert(fxt_test::write_temp("cut.fxt", bytes), "cut");
    EXPECT_EQ(cut.exit, 3) << cut.output;
    const auto [rc2, out2] = run_apcgate({"inspect", cut.dir.string(), "--json"});
    ASSERT_EQ(rc2, 0) << out2;
    const auto j = json_of(out2);
    EXPECT_EQ(j["messages"]["ActivitySwitch"], 2);  // the records before the cut wakeup
}

TEST(FxtEndToEnd, ServeSourceStreamsTheArchive) {
    const auto state = temp_dir("fxt_state");
    DaemonProcess daemon({"serve", "--listen", "127.0.0.1", "--port", "0", "--state-dir",
                          state.string(), "--source",
                          "fxt:" + (kDir / "fxtcpp_general.fxt").string()});
    const auto port = daemon.wait_for_port();
    ASSERT_TRUE(port) << daemon.log();
    auto c = HostClient::connect(*port);
    ASSERT_TRUE(c);
    ASSERT_EQ(c->handshake(), std::optional<std::string>("GATOR 680\n"));
    auto captured_xml = c->request_xml("captured");
    ASSERT_TRUE(captured_xml);
    auto captured = xml::parse_captured(captured_xml->body);
    ASSERT_TRUE(captured) << captured_xml->body;
    ASSERT_TRUE(c->send_command(kApcStart));
    const StreamResult all = read_stream(*c, std::chrono::seconds(20));
    EXPECT_TRUE(all.end_of_sequence);
    const CheckedCapture checked = check_capture(all.frames, *captured);
    for (const auto& e : checked.errors) ADD_FAILURE() << e;
    EXPECT_EQ(checked.thread_names, 4U);
    std::size_t switches = 0;
    for (const auto& f : checked.frames)
        for (const auto& m : f.messages)
            switches += std::holds_alternative<model::ActivitySwitch>(m.body);
    EXPECT_EQ(switches, 2U);
    // The archive's counter values, and the capture's own event rate beside them.
    std::optional<model::CounterKey> own;
    for (const auto& counter : captured->counters)
        if (counter.type == "apcgate_events") own = counter.key;
    ASSERT_TRUE(own);
    std::size_t counter_values = 0;
    for (const auto& [key, n] : checked.values_per_key)
        if (key != *own) counter_values += n;
    EXPECT_EQ(counter_values, 6U);
    EXPECT_GT(checked.values_per_key.count(*own), 0U);
    daemon.signal(SIGTERM);
    EXPECT_EQ(daemon.wait(), std::optional<int>(0)) << daemon.log();
}

}  // namespace
}  // namespace apcgate::e2e
