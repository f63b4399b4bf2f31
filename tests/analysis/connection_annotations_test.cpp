// Annotation connections as External frames carry them: spans from their string messages; a
// stream that is not the annotation protocol at all (gatord relays its ftrace text the same
// way) is noted and skipped, while one that breaks the protocol after its magic is a loss.
#include "daemon/analysis/connection_annotations.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace apcgate::daemon::analysis {
namespace {

std::vector<std::uint8_t> bytes(const std::string& s) {
    return {s.begin(), s.end()};
}

bool has_loss(const Report& r, const std::string& what) {
    for (const auto& l : r.losses.values())
        if (l.spec->name == what) return true;
    return false;
}

Report fed(const std::vector<std::vector<std::uint8_t>>& streams) {
    SpanStatistics spans;
    ConnectionAnnotations connections(spans);
    std::int32_t id = 1;
    for (const auto& s : streams) {
        // Cut in two, as frames cut a stream anywhere.
        const std::size_t half = s.size() / 2;
        connections.data(id, std::span(s).first(half));
        connections.data(id, std::span(s).subspan(half));
        connections.disconnect(id++);
    }
    Report r;
    spans.finish(0);
    spans.fill(r);
    connections.fill(r);
    return r;
}

TEST(ConnectionAnnotations, AStreamOfAnotherKindIsNotedNotALoss) {
    const Report r = fed({bytes("FTRACE 1\nsome ftrace text\n")});
    EXPECT_FALSE(has_loss(r, "annotation_connections_broken"));
    ASSERT_EQ(r.notes.size(), 1U);
    EXPECT_NE(r.notes[0].find("1 External streams"), std::string::npos) << r.notes[0];
}

TEST(ConnectionAnnotations, AStreamBrokenAfterTheMagicIsALoss) {
    const Report r = fed({bytes("ANNOTATE x\n")});
    EXPECT_TRUE(has_loss(r, "annotation_connections_broken"));
    EXPECT_TRUE(r.notes.empty());
}

}  // namespace
}  // namespace apcgate::daemon::analysis
