// Tracepoint descriptions and payloads: the format files this machine's kernel wrote (copied
// into tests/perf/data), payloads decoded from their offsets, wait states from prev_state, and
// tracefs discovery on a fake tree.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "collectors/perf/tracefs.hpp"
#include "collectors/perf/tracepoint_payloads.hpp"
#include "record_bytes.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::collectors::perf {
namespace {

namespace fs = std::filesystem;

std::string data_file(const std::string& name) {
    std::ifstream in(fs::path(apcgate::test_paths::source_dir()) / "tests/perf/data" / name);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(TracepointFormat, ParsesTheKernelsSchedSwitchDescription) {
    auto f = parse_tracepoint_format(data_file("sched_switch.format"), "sched_switch/format");
    ASSERT_TRUE(f) << f.error().to_string();
    EXPECT_EQ(f->name, "sched_switch");
    EXPECT_EQ(f->id, 372U);
    const TracepointField* comm = f->field("next_comm");
    ASSERT_NE(comm, nullptr);
    EXPECT_EQ(comm->offset, 40U);
    EXPECT_EQ(comm->size, 16U);
    const TracepointField* state = f->field("prev_state");
    ASSERT_NE(state, nullptr);
    EXPECT_EQ(state->size, 8U);
    EXPECT_TRUE(state->is_signed);
    EXPECT_EQ(highest_print_flag(f->print_fmt), 0x80U);  // { 0x00000080, "I" }
}

TEST(TracepointFormat, DataLocFieldsAndErrors) {
    const std::string text =
        "name: sched_process_exec\nID: 365\nformat:\n"
        "\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
        "\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n";
    auto f = parse_tracepoint_format(text, "exec");
    ASSERT_TRUE(f);
    ASSERT_NE(f->field("filename"), nullptr);
    EXPECT_TRUE(f->field("filename")->data_loc);
    EXPECT_FALSE(f->field("pid")->data_loc);

    auto bad = parse_tracepoint_format("format:\n\tfield:int x;\toffset:zz;\tsize:4;\n", "bad");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().record, "field line 2");
    EXPECT_FALSE(parse_tracepoint_format("name: empty\n", "empty"));
}

class SchedSwitchPayload : public ::testing::Test {
  protected:
    void SetUp() override {
        auto f = parse_tracepoint_format(data_file("sched_switch.format"), "format");
        ASSERT_TRUE(f);
        auto l = SchedSwitchLayout::from(*f);
        ASSERT_TRUE(l) << l.error().to_string();
        layout_ = *l;
    }
    std::optional<SchedSwitchLayout> layout_;
};

TEST_F(SchedSwitchPayload, DecodesNamesAndTids) {
    const auto raw = testing::sched_switch_payload("ping", 1234, 1, "pong", 1235);
    auto s = layout_->decode(raw, 0, "raw");
    ASSERT_TRUE(s) << s.error().to_string();
    EXPECT_EQ(s->prev_comm, "ping");
    EXPECT_EQ(s->prev_tid, 1234);
    EXPECT_EQ(s->prev_state, 1);
    EXPECT_EQ(s->next_comm, "pong");
    EXPECT_EQ(s->next_tid, 1235);
    // A 16-character name fills its field with no NUL.
    auto full =
        layout_->decode(testing::sched_switch_payload("abcdefghijklmnop", 1, 0, "b", 2), 0, "raw");
    ASSERT_TRUE(full);
    EXPECT_EQ(full->prev_comm, "abcdefghijklmnop");
}

TEST_F(SchedSwitchPayload, WaitStateFromPrevState) {
    EXPECT_EQ(layout_->preempt_bit(), 0x100U);
    EXPECT_EQ(layout_->wait_state(0x100), model::WaitState::Contention);  // "R+": preempted
    EXPECT_EQ(layout_->wait_state(0), model::WaitState::Contention);      // "R"
    EXPECT_EQ(layout_->wait_state(0x2), model::WaitState::Io);            // "D"
    EXPECT_EQ(layout_->wait_state(0x1), model::WaitState::Other);         // "S"
    EXPECT_EQ(layout_->wait_state(0x80), model::WaitState::Other);        // "I"
    EXPECT_EQ(layout_->wait_state(0x4), model::WaitState::Other);         // "T"
}

TEST_F(SchedSwitchPayload, ShortPayloadIsAnErrorNamingTheField) {
    auto raw = testing::sched_switch_payload("a", 1, 1, "b", 2);
    raw.resize(50);  // cuts next_comm
    auto s = layout_->decode(raw, 1000, "ring");
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().record, "sched:sched_switch");
    EXPECT_EQ(s.error().field, "next_comm");
    EXPECT_EQ(s.error().input, "ring");
}

TEST(SchedSwitchLayoutFrom, MissingFieldIsAnError) {
    auto f = parse_tracepoint_format(
        "name: sched_switch\nformat:\n\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n",
        "f");
    ASSERT_TRUE(f);
    auto l = SchedSwitchLayout::from(*f);
    ASSERT_FALSE(l);
    EXPECT_NE(l.error().message.find("prev_comm"), std::string::npos);
}

TEST(CpuIdlePayload, EnterAndExit) {
    auto f = parse_tracepoint_format(data_file("cpu_idle.format"), "cpu_idle");
    ASSERT_TRUE(f);
    auto l = CpuIdleLayout::from(*f);
    ASSERT_TRUE(l);
    testing::Bytes p;
    p.u16(568).u8(0).u8(0).u32(0).u32(2).u32(1);  // state 2 on cpu 1
    auto in = l->decode(p.bytes(), 0, "raw");
    ASSERT_TRUE(in);
    EXPECT_EQ(in->state, 2);
    EXPECT_EQ(in->cpu, 1);
    testing::Bytes q;
    q.u16(568).u8(0).u8(0).u32(0).u32(0xffffffffu).u32(0);
    auto out = l->decode(q.bytes(), 0, "raw");
    ASSERT_TRUE(out);
    EXPECT_EQ(out->state, -1);
    testing::Bytes r;
    r.u16(568).u8(0).u8(0).u32(0).u32(1).u32(0x12345678);  // a CPU number no machine has
    EXPECT_FALSE(l->decode(r.bytes(), 0, "raw"));
}

TEST(Tracefs, ReadsIdsAndFormatsFromAGivenTreeAndSaysWhatIsMissing) {
    const fs::path root =
        fs::temp_directory_path() / ("tracefs_test." + std::to_string(::getpid()));
    fs::create_directories(root / "events/sched/sched_switch");
    std::ofstream(root / "events/sched/sched_switch/id") << "372\n";
    std::ofstream(root / "events/sched/sched_switch/format") << data_file("sched_switch.format");
    const TracefsProbe p =
        read_tracepoints({"sched/sched_switch", "power/cpu_idle"}, root, "/proc");
    fs::remove_all(root);
    ASSERT_EQ(p.found.count("sched/sched_switch"), 1U);
    EXPECT_EQ(p.found.at("sched/sched_switch").id, 372U);
    EXPECT_EQ(p.found.at("sched/sched_switch").format.fields.size(), 11U);
    ASSERT_EQ(p.problems.size(), 1U);
    EXPECT_NE(p.problems[0].find("power/cpu_idle"), std::string::npos);
}

// A Perf-type capture carries the format file itself: what the kernel wrote, byte for byte,
// including lines the parser has no use for (a newer kernel's keys), not a text rebuilt from
// the parsed fields.
TEST(Tracefs, KeepsTheFormatFileAsTheKernelWroteIt) {
    const fs::path root =
        fs::temp_directory_path() / ("tracefs_text_test." + std::to_string(::getpid()));
    fs::create_directories(root / "events/sched/sched_switch");
    std::ofstream(root / "events/sched/sched_switch/id") << "372\n";
    const std::string text =
        data_file("sched_switch.format") + "future key: something this parser ignores\n";
    std::ofstream(root / "events/sched/sched_switch/format") << text;
    const TracefsProbe p = read_tracepoints({"sched/sched_switch"}, root, "/proc");
    fs::remove_all(root);
    ASSERT_EQ(p.found.count("sched/sched_switch"), 1U);
    EXPECT_EQ(p.found.at("sched/sched_switch").format_text, text);
}

TEST(Tracefs, FindsTheMountPointInAMountsText) {
    EXPECT_EQ(
        tracefs_in_mounts("proc /proc proc rw 0 0\ntracefs /sys/kernel/tracing tracefs rw 0 0\n"),
        "/sys/kernel/tracing");
    EXPECT_EQ(tracefs_in_mounts("proc /proc proc rw 0 0\n"), "");
}

}  // namespace
}  // namespace apcgate::collectors::perf
