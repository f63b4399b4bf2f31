// Inputs no client should send: every parser must answer with an Error (never a crash, a throw
// or a silently truncated document), and within the size bound.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "tests/xml/spec_examples.hpp"
#include "xml/documents.hpp"

namespace apcgate::xml {
namespace {

// Each parser, reduced to "ok, or the error's message".
struct Parser {
    const char* name;
    std::function<std::optional<std::string>(std::string_view)> error_of;
};

template <typename F>
Parser parser(const char* name, F parse) {
    return {name, [parse](std::string_view doc) -> std::optional<std::string> {
                auto r = parse(doc);
                if (r.ok()) return std::nullopt;
                return r.error().to_string();
            }};
}

std::vector<Parser> all_parsers() {
    return {parser("request", parse_request),
            parser("session", parse_session),
            parser("configuration", parse_configuration),
            parser("captured", parse_captured),
            parser("events", parse_events),
            parser("counters", parse_counters)};
}

void expect_every_parser_refuses(std::string_view doc, std::string_view expected_text = "") {
    for (const Parser& p : all_parsers()) {
        const auto error = p.error_of(doc);
        ASSERT_TRUE(error.has_value()) << p.name;
        EXPECT_NE(error->find(expected_text), std::string::npos) << p.name << ": " << *error;
    }
    EXPECT_EQ(classify_delivered(doc), DeliveredKind::Other);
}

TEST(HostileInput, Empty) {
    using namespace std::string_literals;
    expect_every_parser_refuses("", "empty document");
    expect_every_parser_refuses(" \n\t ", "empty document");
    expect_every_parser_refuses("\0\0\0\0"s, "empty document");
}

TEST(HostileInput, BinaryGarbage) {
    std::string garbage;
    std::mt19937 rng(42);
    for (int i = 0; i < 4096; ++i) garbage += static_cast<char>(rng() & 0xff);
    garbage[0] = '\x01';  // not '<': certainly not a document
    expect_every_parser_refuses(garbage);
}

TEST(HostileInput, OverTheSizeLimit) {
    // A well-formed 2 MiB session: refused for its size alone.
    std::string doc = "<session>";
    while (doc.size() < std::size_t{2} * 1024 * 1024)
        doc += "<image path=\"/usr/lib/libsomething.so\"/>";
    doc += "</session>";
    expect_every_parser_refuses(doc, "exceeds the limit");
    // Exactly at the limit is still read.
    std::string at_limit = "<request type=\"events\"/>";
    at_limit.append(kMaxDocumentBytes - at_limit.size(), ' ');
    EXPECT_TRUE(parse_request(at_limit).ok());
}

TEST(HostileInput, DeeplyNested) {
    // ~170000 levels inside the root: fine to parse (pugixml does not recurse), and ignored.
    std::string doc = "<request type=\"counters\">";
    const std::size_t depth = (kMaxDocumentBytes - 64) / 7;
    for (std::size_t i = 0; i < depth; ++i) doc += "<a>";
    for (std::size_t i = 0; i < depth; ++i) doc += "</a>";
    doc += "</request>";
    ASSERT_LE(doc.size(), kMaxDocumentBytes);
    auto r = parse_request(doc);
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    EXPECT_EQ(*r, RequestType::Counters);

    // The same depth never closed: an error, not a crash.
    std::string open;
    while (open.size() + 3 <= kMaxDocumentBytes) open += "<a>";
    expect_every_parser_refuses(open, "not well-formed");
}

TEST(HostileInput, Unterminated) {
    expect_every_parser_refuses("<request type=\"events\"", "not well-formed");
    expect_every_parser_refuses("<configurations revision=\"3\"><configuration counter=\"a\"/>");
    expect_every_parser_refuses("<session buffer_mode='streaming");
    expect_every_parser_refuses("<!-- never closed", "");
}

TEST(HostileInput, NulInsideTheDocument) {
    using namespace std::string_literals;
    // pugixml would read up to the NUL and call the rest fine; we refuse instead.
    auto r = parse_request("<request type=\"events\"/>\0<trailing junk>"s);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("NUL"), std::string::npos);
    ASSERT_TRUE(r.error().offset.has_value());
    EXPECT_EQ(*r.error().offset, 24U);
}

TEST(HostileInput, NoEntityExpansion) {
    // A "billion laughs" document: pugixml does not expand DTD entities, so the reference stays
    // unexpanded and the document stays small.
    const std::string doc =
        "<!DOCTYPE r [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]>"
        "<counters><counter name=\"&b;\"/></counters>";
    auto names = parse_counters(doc);
    ASSERT_TRUE(names.ok()) << names.error().to_string();
    ASSERT_EQ(names->size(), 1U);
    EXPECT_LT(names->front().size(), 10U);
}

TEST(HostileInput, MutatedSpecExamplesNeverCrash) {
    // A cheap in-test fuzzer (the libFuzzer targets go further): flip, drop and duplicate bytes.
    std::mt19937 rng(7);
    const std::string_view seeds[] = {testing::kSpecRequest,       testing::kSpecSession,
                                      testing::kSpecConfiguration, testing::kSpecCaptured,
                                      testing::kSpecEvents,        testing::kSpecCounters};
    int refused = 0;
    for (int round = 0; round < 300; ++round) {
        std::string doc(seeds[round % 6]);
        for (int m = 0; m < 8 && !doc.empty(); ++m) {
            const std::size_t at = rng() % doc.size();
            switch (rng() % 3) {
                case 0:
                    doc[at] = static_cast<char>(rng() & 0xff);
                    break;
                case 1:
                    doc.erase(at, 1);
                    break;
                default:
                    doc.insert(at, 1, doc[at]);
                    break;
            }
        }
        for (const Parser& p : all_parsers())
            if (const auto e = p.error_of(doc)) refused += e->empty() ? 0 : 1;
        (void)classify_delivered(doc);
    }
    EXPECT_GT(refused, 0);  // at least the parsers whose root does not match refuse every round
}

}  // namespace
}  // namespace apcgate::xml
