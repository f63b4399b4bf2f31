#include "daemon/capture/annotation_ids.hpp"

#include <gtest/gtest.h>

namespace apcgate::daemon {
namespace {

model::Event group(std::int32_t id, std::string name) {
    return model::Annotation{0, 0, 7, model::GroupName{id, std::move(name)}};
}
model::Event channel(std::int32_t id, std::int32_t in_group, std::string name) {
    return model::Annotation{0, 0, 7, model::ChannelName{id, in_group, std::move(name)}};
}
model::Event text(std::int32_t on_channel, std::string s) {
    return model::Annotation{0, 0, 7,
                             model::StringAnnotation{on_channel, std::nullopt, std::move(s)}};
}

std::int32_t group_of(const model::Event& e) {
    return std::get<model::GroupName>(std::get<model::Annotation>(e).body).group;
}
std::pair<std::int32_t, std::int32_t> channel_of(const model::Event& e) {
    const auto& c = std::get<model::ChannelName>(std::get<model::Annotation>(e).body);
    return {c.channel, c.group};
}
std::int32_t text_channel(const model::Event& e) {
    return std::get<model::StringAnnotation>(std::get<model::Annotation>(e).body).channel;
}

TEST(AnnotationIds, TheFirstSourceKeepsItsIdsAndALaterOneGetsFreeOnes) {
    AnnotationIds ids(2);
    std::vector<model::Event> a{group(1, "xray thread"), channel(1, 1, "depth 0"), text(1, "f")};
    ids.remap(0, a);
    EXPECT_EQ(group_of(a[0]), 1);
    EXPECT_EQ(channel_of(a[1]), std::make_pair(1, 1));
    EXPECT_EQ(text_channel(a[2]), 1);

    // The other source names its own group 1 and channels 1 and 2.
    std::vector<model::Event> b{group(1, "lttng process"), channel(1, 1, "tracef"),
                                channel(2, 1, "tracelog"), text(1, "hello"), text(2, "x")};
    ids.remap(1, b);
    EXPECT_EQ(group_of(b[0]), 2);
    EXPECT_EQ(channel_of(b[1]), std::make_pair(2, 2));
    EXPECT_EQ(channel_of(b[2]), std::make_pair(3, 2));
    EXPECT_EQ(text_channel(b[3]), 2);
    EXPECT_EQ(text_channel(b[4]), 3);

    // Later uses keep each source's translation; a new id of the first source that the second
    // took meanwhile (2) is moved, one nobody has (9) is kept.
    std::vector<model::Event> again{text(1, "g"), channel(2, 1, "depth 1"), channel(9, 1, "d9")};
    ids.remap(0, again);
    EXPECT_EQ(text_channel(again[0]), 1);
    EXPECT_EQ(channel_of(again[1]), std::make_pair(4, 1));
    EXPECT_EQ(channel_of(again[2]), std::make_pair(9, 1));
    std::vector<model::Event> more{text(2, "y")};
    ids.remap(1, more);
    EXPECT_EQ(text_channel(more[0]), 3);
}

TEST(AnnotationIds, SpanRunItemsAndTheDefaultChannel) {
    AnnotationIds ids(2);
    std::vector<model::Event> a{channel(1, 0, "depth 0")};
    ids.remap(0, a);
    model::SpanRun run;
    run.add(10, 0, 7, 1, "call");
    run.add(20, 0, 7, 0, "default row");  // channel 0: the default, shared
    run.add(30, 0, 7, 1, "");
    std::vector<model::Event> b{channel(1, 0, "depth 0"), std::move(run)};
    ids.remap(1, b);
    EXPECT_EQ(channel_of(b[0]), std::make_pair(2, 0));
    const auto& items = std::get<model::SpanRun>(b[1]).items;
    EXPECT_EQ(items[0].channel, 2);
    EXPECT_EQ(items[1].channel, 0);
    EXPECT_EQ(items[2].channel, 2);
}

TEST(AnnotationIds, IdsOutsideTheDenseRangeAreTranslatedToo) {
    AnnotationIds ids(2);
    std::vector<model::Event> a{text(1 << 20, "big"), text(-5, "negative")};
    ids.remap(0, a);
    EXPECT_EQ(text_channel(a[0]), 1 << 20);
    EXPECT_EQ(text_channel(a[1]), -5);
    std::vector<model::Event> b{text(1 << 20, "big"), text(-5, "negative"), text(1 << 20, "again")};
    ids.remap(1, b);
    EXPECT_EQ(text_channel(b[0]), 1);
    EXPECT_EQ(text_channel(b[1]), 2);
    EXPECT_EQ(text_channel(b[2]), 1);
}

TEST(AnnotationIds, PastTheLimitNewIdsShareOneSoMemoryStaysBounded) {
    AnnotationIds ids(2, 3);
    std::vector<model::Event> a{text(1, "a"), text(2, "b"), text(3, "c"),
                                text(4, "d"), text(5, "e"), text(1, "a again")};
    ids.remap(0, a);
    EXPECT_EQ(text_channel(a[0]), 1);
    EXPECT_EQ(text_channel(a[2]), 3);
    EXPECT_EQ(text_channel(a[3]), 4);  // the overflow id: the lowest free one
    EXPECT_EQ(text_channel(a[4]), 4);
    EXPECT_EQ(text_channel(a[5]), 1);  // ids translated before the limit keep their translation
    std::vector<model::Event> b{text(1, "x"), text(99, "y")};
    ids.remap(1, b);
    EXPECT_EQ(text_channel(b[0]), 4);
    EXPECT_EQ(text_channel(b[1]), 4);
}

}  // namespace
}  // namespace apcgate::daemon
