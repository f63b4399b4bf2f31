// A capture's statistics file (daemon/capture/statistics_file.hpp): what record and convert
// write reads back as written, and a hostile file is refused with the field and kind that are
// wrong, never read past its bounds.
#include "daemon/capture/statistics_file.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/apc/encoder_statistics.hpp"

namespace apcgate::daemon {
namespace {

std::vector<StatisticsOf> sample_parts() {
    apc::EncoderStatistics encoder;
    encoder[apc::EncoderStat::Frames] = 12;
    encoder[apc::EncoderStat::OutOfOrder] = 3;
    return {{"encoder", encoder.values()}, {"source a.fxt", {}}};
}

TEST(StatisticsFile, ReadsBackEveryStatisticAsWritten) {
    const auto parts = sample_parts();
    auto parsed = parse_statistics_document(statistics_document(parts));
    ASSERT_TRUE(parsed) << parsed.error().to_string();
    ASSERT_EQ(parsed->size(), 2u);
    const RecordedPart& enc = (*parsed)[0];
    EXPECT_EQ(enc.who, "encoder");
    ASSERT_EQ(enc.statistics.size(), apc::kEncoderStatistics.size());
    for (std::size_t i = 0; i < enc.statistics.size(); ++i) {
        const RecordedStatistic& r = enc.statistics[i];
        EXPECT_EQ(r.name, apc::kEncoderStatistics[i].name);
        EXPECT_EQ(r.value, parts[0].values[i].value);
        EXPECT_EQ(r.severity, model::severity_name(apc::kEncoderStatistics[i].severity));
        EXPECT_EQ(r.description, apc::kEncoderStatistics[i].description);
    }
    EXPECT_EQ((*parsed)[1].who, "source a.fxt");
    EXPECT_TRUE((*parsed)[1].statistics.empty());
}

struct Hostile {
    const char* text;
    ErrorKind kind;
    const char* field;  // "" when the error names none
};

class StatisticsFileHostile : public testing::TestWithParam<Hostile> {};

TEST_P(StatisticsFileHostile, IsRefusedWithTheKindAndField) {
    const Hostile& h = GetParam();
    auto parsed = parse_statistics_document(h.text);
    ASSERT_FALSE(parsed) << h.text;
    EXPECT_EQ(parsed.error().kind, h.kind) << parsed.error().to_string();
    EXPECT_EQ(parsed.error().field, h.field) << parsed.error().to_string();
}

INSTANTIATE_TEST_SUITE_P(
    Documents, StatisticsFileHostile,
    testing::Values(
        Hostile{"", ErrorKind::Malformed, ""},
        Hostile{"{\"apcgate_statistics\": 1", ErrorKind::Malformed, ""},
        Hostile{"[]", ErrorKind::Malformed, ""},
        Hostile{"{\"parts\": []}", ErrorKind::Malformed, "apcgate_statistics"},
        Hostile{"{\"apcgate_statistics\": 2, \"parts\": []}", ErrorKind::Unsupported, ""},
        Hostile{"{\"apcgate_statistics\": 1, \"parts\": {}}", ErrorKind::Malformed, "parts"},
        Hostile{"{\"apcgate_statistics\": 1, \"parts\": [3]}", ErrorKind::Malformed, "parts[0]"},
        Hostile{"{\"apcgate_statistics\": 1, \"parts\": [{\"statistics\": []}]}",
                ErrorKind::Malformed, "parts[0].who"},
        Hostile{"{\"apcgate_statistics\": 1, \"parts\": [{\"who\": \"x\"}]}", ErrorKind::Malformed,
                "parts[0].statistics"},
        Hostile{"{\"apcgate_statistics\": 1, \"parts\": [{\"who\": \"x\", \"statistics\": "
                "[{\"name\": \"n\", \"value\": -1, \"severity\": \"info\", \"description\": "
                "\"d\"}]}]}",
                ErrorKind::Malformed, "parts[0].statistics[0].value"},
        Hostile{"{\"apcgate_statistics\": 1, \"parts\": [{\"who\": \"x\", \"statistics\": "
                "[{\"name\": \"n\", \"value\": 1, \"severity\": \"fatal\", \"description\": "
                "\"d\"}]}]}",
                ErrorKind::Malformed, "parts[0].statistics[0].severity"},
        Hostile{"{\"apcgate_statistics\": 1, \"parts\": [{\"who\": \"x\", \"statistics\": "
                "[{\"name\": 7, \"value\": 1, \"severity\": \"info\", \"description\": "
                "\"d\"}]}]}",
                ErrorKind::Malformed, "parts[0].statistics[0].name"}));

TEST(StatisticsFile, BoundsRefuseWhatNoCaptureOfOursHolds) {
    const std::string long_who(5000, 'w');
    auto long_text =
        parse_statistics_document("{\"apcgate_statistics\": 1, \"parts\": [{\"who\": \"" +
                                  long_who + "\", \"statistics\": []}]}");
    ASSERT_FALSE(long_text);
    EXPECT_EQ(long_text.error().kind, ErrorKind::Limit);
    EXPECT_EQ(long_text.error().field, "parts[0].who");

    std::string many = "{\"apcgate_statistics\": 1, \"parts\": [";
    for (int i = 0; i < 1025; ++i)
        many += std::string(i ? "," : "") + "{\"who\":\"x\",\"statistics\":[]}";
    many += "]}";
    auto too_many = parse_statistics_document(many);
    ASSERT_FALSE(too_many);
    EXPECT_EQ(too_many.error().kind, ErrorKind::Limit);
    EXPECT_EQ(too_many.error().field, "parts");

    const std::string huge(kMaxStatisticsFileBytes + 1, ' ');
    auto too_big = parse_statistics_document(huge);
    ASSERT_FALSE(too_big);
    EXPECT_EQ(too_big.error().kind, ErrorKind::Limit);

    // Deep nesting is refused by the shape, without recursing through it.
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    auto nested = parse_statistics_document(deep);
    ASSERT_FALSE(nested);
    EXPECT_EQ(nested.error().kind, ErrorKind::Malformed);
}

}  // namespace
}  // namespace apcgate::daemon
