#include "collectors/ingest/span_channels.hpp"

#include <gtest/gtest.h>

namespace apcgate::collectors::ingest {
namespace {

template <class T>
const T& body(const model::Event& e) {
    return std::get<T>(std::get<model::Annotation>(e).body);
}

TEST(SpanChannels, NamesGroupAndChannelOnceThenOpensAndCloses) {
    SpanChannels s;
    std::vector<model::Event> out;
    s.name_thread(0, 42, "worker", out);
    EXPECT_TRUE(out.empty());  // named lazily, with its first span
    s.open(10, 1, 42, 0, "main", out);
    s.open(20, 1, 42, 1, "f(3)", out);
    s.close(30, 1, 42, 1, out);
    s.close(40, 1, 42, 0, out);
    ASSERT_EQ(out.size(), 7U);
    EXPECT_EQ(body<model::GroupName>(out[0]).name, "worker");
    const auto& ch0 = body<model::ChannelName>(out[1]);
    EXPECT_EQ(ch0.group, body<model::GroupName>(out[0]).group);
    EXPECT_EQ(body<model::StringAnnotation>(out[2]).text, "main");
    EXPECT_EQ(body<model::StringAnnotation>(out[2]).channel, ch0.channel);
    const auto& ch1 = body<model::ChannelName>(out[3]);
    EXPECT_NE(ch1.channel, ch0.channel);
    EXPECT_EQ(body<model::StringAnnotation>(out[5]).channel, ch1.channel);
    EXPECT_TRUE(body<model::StringAnnotation>(out[5]).text.empty());
    EXPECT_EQ(body<model::StringAnnotation>(out[6]).channel, ch0.channel);
    EXPECT_EQ(std::get<model::Annotation>(out[6]).tid, 42);
    EXPECT_EQ(std::get<model::Annotation>(out[6]).core, 1);
}

TEST(SpanChannels, ThreadsGetDistinctGroupsAndChannels) {
    SpanChannels s;
    std::vector<model::Event> out;
    s.open(1, 0, 1, 0, "a", out);
    s.open(1, 0, 2, 0, "", out);
    EXPECT_NE(body<model::GroupName>(out[0]).group, body<model::GroupName>(out[3]).group);
    EXPECT_NE(body<model::ChannelName>(out[1]).channel, body<model::ChannelName>(out[4]).channel);
    EXPECT_EQ(body<model::StringAnnotation>(out[5]).text, "?");  // never an accidental close
    EXPECT_EQ(body<model::GroupName>(out[3]).name, "thread 2");
    s.note(2, 0, 1, "marker", out);
    ASSERT_EQ(out.size(), 9U);
    EXPECT_EQ(body<model::ChannelName>(out[6]).name, "events");
    EXPECT_EQ(s.channels(), 3U);
}

}  // namespace
}  // namespace apcgate::collectors::ingest
