// Every message kind built by the in-repo client parses back to the values it was built from,
// and the client's encodings match the byte examples of the protocol notes.
#include "collectors/annotate/message_parser.hpp"

#include <gtest/gtest.h>

#include "annotate_client.hpp"

namespace apcgate::collectors::annotate {
namespace {

using annotate_test::Bytes;
namespace client = annotate_test;

// Parses one whole message built by the client.
Result<AnnotationMessage> parse(const Bytes& whole, std::uint64_t offset = 100) {
    MessageRecord m;
    m.code = whole.at(0);
    m.length = static_cast<std::uint32_t>(whole.size() - 5);
    m.offset = offset;
    m.head = std::span(whole).subspan(5);
    m.raw = whole;
    return parse_message(m);
}

template <typename T>
T parsed_as(const Bytes& whole) {
    auto r = parse(whole);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
    if (!r.ok() || !std::holds_alternative<T>(r.value())) {
        ADD_FAILURE() << "wrong kind";
        return T{};
    }
    return std::get<T>(std::move(r).value());
}

TEST(MessageEncoding, MatchesTheNotesByteExamples) {
    Bytes b;
    client::put_packed(b, static_cast<std::int32_t>(0xFFFFFFFFu));  // "none"
    EXPECT_EQ(b, (Bytes{0x7f}));
    b.clear();
    client::put_packed(b, 3'800'000'000'000LL);  // bit 41 set: an extra sign byte
    EXPECT_EQ(b.size(), 7U);
    EXPECT_EQ(b.back(), 0x00);
    b.clear();
    client::put_colour(b, 0x0000ff1bu);  // ANNOTATE_RED = ESC | 0xff << 8
    EXPECT_EQ(b, (Bytes{0xff, 0x00, 0x00, 0x1b}));
    const Bytes hs = client::handshake(0x01020304, 0x0a0b0c0d, 1);
    ASSERT_EQ(hs.size(), 20U);
    EXPECT_EQ(std::string(hs.begin(), hs.begin() + 11), "ANNOTATE 5\n");
    EXPECT_EQ(hs[11], 0x04);
    EXPECT_EQ(hs[15], 0x0d);
    EXPECT_EQ(hs[19], 1);
    const std::uint8_t red[4] = {0xff, 0x00, 0x00, 0x1b};
    EXPECT_EQ(colour_from_bytes(std::span<const std::uint8_t, 4>(red)), 0x0000ff1bu);
}

TEST(MessageParser, StringsMarkersNamesAndVisuals) {
    auto s = parsed_as<StringMsg>(client::string_msg(12345, 0xffffffffu, "héllo"));
    EXPECT_EQ(s.time, 12345);
    EXPECT_EQ(s.channel, -1);
    EXPECT_FALSE(s.colour);
    EXPECT_EQ(s.text, "héllo");
    auto c = parsed_as<StringMsg>(client::string_colour_msg(1, 3, 0x00ff001bu, "green"));
    EXPECT_EQ(c.colour, std::optional<std::uint32_t>(0x00ff001bu));
    EXPECT_EQ(c.text, "green");
    EXPECT_EQ(parsed_as<StringMsg>(client::string_msg(1, 3, "")).text, "");
    auto ch = parsed_as<ChannelNameMsg>(client::channel_name_msg(2, 3, 4, "chan"));
    EXPECT_EQ(std::tie(ch.time, ch.channel, ch.group, ch.name),
              std::make_tuple(std::int64_t{2}, 3, 4, std::string("chan")));
    auto g = parsed_as<GroupNameMsg>(client::group_name_msg(5, 6, "grp"));
    EXPECT_EQ(std::tie(g.time, g.group, g.name),
              std::make_tuple(std::int64_t{5}, 6, std::string("grp")));
    auto v = parsed_as<VisualMsg>(client::visual_msg(7, "pic", Bytes(1234, 9)));
    EXPECT_EQ(v.time, 7);
    EXPECT_EQ(v.text, "pic");
    EXPECT_EQ(v.image_bytes, 1234U);
    auto m = parsed_as<MarkerMsg>(client::marker_msg(8, "mark"));
    EXPECT_EQ(m.text, "mark");
    EXPECT_FALSE(m.colour);
    auto mc = parsed_as<MarkerMsg>(client::marker_colour_msg(9, 0x0000ff1bu, "red"));
    EXPECT_EQ(mc.colour, std::optional<std::uint32_t>(0x0000ff1bu));
}

TEST(MessageParser, CountersAndActivities) {
    client::CounterDef d;
    d.id = 12;
    d.per_cpu = 1;
    d.counter_class = 3;
    d.display = 2;
    d.modifier = 1000;
    d.series = 2;
    d.rendering = 3;
    d.average_selection = 1;
    d.average_cores = 1;
    d.percentage = 1;
    d.cores = 8;
    d.colour = 0x1234561bu;
    d.activities = {{"idle", 1}, {"", 0xffffffffu}, {"run", 3}};
    d.title = "Title";
    d.name = "Name";
    d.units = "";
    d.description = "desc";
    auto c = parsed_as<CounterMsg>(client::counter_msg(d));
    EXPECT_EQ(c.id, 12);
    EXPECT_EQ(c.per_cpu, 1);
    EXPECT_EQ(c.counter_class, 3);
    EXPECT_EQ(c.display, 2);
    EXPECT_EQ(c.modifier, 1000);
    EXPECT_EQ(c.series_composition, 2);
    EXPECT_EQ(c.rendering_type, 3);
    EXPECT_EQ(c.average_selection, 1);
    EXPECT_EQ(c.average_cores, 1);
    EXPECT_EQ(c.percentage, 1);
    EXPECT_EQ(c.activity_count, 3);
    EXPECT_EQ(c.cores, 8);
    EXPECT_EQ(c.colour, 0x1234561bu);
    ASSERT_EQ(c.activities.size(), 3U);
    EXPECT_EQ(c.activities[0].name, "idle");
    EXPECT_EQ(c.activities[1].name, "");
    EXPECT_EQ(c.activities[1].colour, 0xffffffffu);
    EXPECT_EQ(c.activities[2].colour, 3U);
    EXPECT_EQ(c.title, "Title");
    EXPECT_EQ(c.name, "Name");
    EXPECT_EQ(c.units, "");
    EXPECT_EQ(c.description, "desc");

    auto v = parsed_as<CounterValueMsg>(client::counter_value_msg(99, 2, 12, INT64_MIN));
    EXPECT_EQ(std::tie(v.time, v.core, v.id, v.value),
              std::make_tuple(std::int64_t{99}, 2, 12, std::int64_t{INT64_MIN}));
    auto a = parsed_as<ActivitySwitchMsg>(client::activity_switch_msg(5, 1, 12, 2, 0xffffffffu));
    EXPECT_EQ(std::tie(a.time, a.core, a.id, a.activity, a.tid),
              std::make_tuple(std::int64_t{5}, 1, 12, 2, -1));
}

TEST(MessageParser, CamMessages) {
    auto t = parsed_as<CamTrackMsg>(client::cam_track_msg(1, 2, 0xffffffffu, "track"));
    EXPECT_EQ(std::tie(t.view, t.track, t.parent, t.name),
              std::make_tuple(1, 2, -1, std::string("track")));
    auto j = parsed_as<CamJobMsg>(client::cam_job_msg(1, 10, 2, 1'000'000'000'000, 5000, 0x1b,
                                                      0xffffffffu, {3, 0x80000000u}, "job"));
    EXPECT_EQ(j.start, 1'000'000'000'000);
    EXPECT_EQ(j.duration, 5000);
    EXPECT_EQ(j.colour, 0x1bU);
    EXPECT_EQ(j.primary_dep, -1);
    EXPECT_EQ(j.deps, (std::vector<std::int32_t>{3, INT32_MIN}));
    EXPECT_EQ(j.name, "job");
    auto n = parsed_as<CamViewNameMsg>(client::cam_view_name_msg(4, "view"));
    EXPECT_EQ(std::tie(n.view, n.name), std::make_tuple(4, std::string("view")));
    auto s = parsed_as<CamJobStartMsg>(client::cam_job_start_msg(1, 11, 2, 77, 0x2, "start"));
    EXPECT_EQ(std::tie(s.view, s.job, s.track, s.time, s.colour, s.name),
              std::make_tuple(1, 11, 2, std::int64_t{77}, std::uint32_t{2}, std::string("start")));
    auto d = parsed_as<CamJobSetDepsMsg>(client::cam_job_set_deps_msg(1, 11, 78, 10, {10, 12}));
    EXPECT_EQ(d.time, 78);
    EXPECT_EQ(d.primary_dep, 10);
    EXPECT_EQ(d.deps, (std::vector<std::int32_t>{10, 12}));
    auto e = parsed_as<CamJobStopMsg>(client::cam_job_stop_msg(1, 11, 79));
    EXPECT_EQ(std::tie(e.view, e.job, e.time), std::make_tuple(1, 11, std::int64_t{79}));
}

TEST(MessageParser, MalformedPayloadsNameTheField) {
    // Each is a kind whose fields run past the payload.
    const std::vector<std::pair<Bytes, std::string>> bad = {
        {client::message(0x01, {}), "time"},
        {client::message(0x02, {0x01, 0x00, 0xff}), "colour"},
        {client::message(0x05, {0x01, 'n', 'o', 'n', 'u', 'l'}), "text"},
        {client::message(0x09, {0x01, 0x00, 0x00}), "value"},
        {client::message(0x0a, {0x01, 0x00, 0x00, 0x00}), "tid"},
        {client::message(0x0c, {0x01, 0x01, 0x01, 0x01, 0x01, 0, 0, 0, 0, 0x7f, 0x02, 0x85, 0x85}),
         "dependency"},
        {client::message(0x08, Bytes(12, 0x00)), "colour"},
        {client::message(
             0x10, {0x01, 0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}),
         "time"},
    };
    for (const auto& [bytes, field] : bad) {
        auto r = parse(bytes, 1000);
        ASSERT_FALSE(r.ok()) << field;
        EXPECT_EQ(r.error().field, field) << r.error().to_string();
        EXPECT_GE(r.error().offset.value_or(0), 1005U);
        EXPECT_NE(r.error().record.find("message"), std::string::npos);
        // The message is all there: its fields overrun it.
        EXPECT_EQ(r.error().kind, ErrorKind::Malformed) << r.error().to_string();
    }
}

}  // namespace
}  // namespace apcgate::collectors::annotate
