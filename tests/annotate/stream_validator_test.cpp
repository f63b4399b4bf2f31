// The data-connection tokenizer and validator on byte vectors from the in-repo client: every
// message kind, any split of the bytes, the protocol errors that drop a connection (with offset,
// record kind and field), and streams cut short (forwarded as they arrived).
#include "collectors/annotate/stream_validator.hpp"

#include <gtest/gtest.h>

#include <random>

#include "annotate_client.hpp"

namespace apcgate::collectors::annotate {
namespace {

using annotate_test::Bytes;
namespace client = annotate_test;

struct Fed {
    Bytes forwarded;
    StreamValidator validator;
};

// Feeds `in` cut into pieces of the given sizes (cycled; empty: all at once).
Fed feed(const Bytes& in, const std::vector<std::size_t>& sizes = {}, StreamLimits limits = {}) {
    Fed f{{}, StreamValidator(limits)};
    std::size_t pos = 0, turn = 0;
    while (pos < in.size()) {
        const std::size_t n =
            std::min(sizes.empty() ? in.size() : sizes[turn++ % sizes.size()], in.size() - pos);
        f.validator.feed(std::span(in).subspan(pos, n), f.forwarded);
        pos += n;
    }
    return f;
}

Bytes cat(std::initializer_list<Bytes> parts) {
    Bytes out;
    for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

TEST(StreamValidator, EveryKindIsCountedAndForwardedUnchanged) {
    const Bytes in =
        cat({client::handshake(4242, 4240, 1), client::every_kind(3'800'000'000'000, "a")});
    Fed f = feed(in);
    ASSERT_FALSE(f.validator.failed()) << f.validator.error()->to_string();
    EXPECT_EQ(f.forwarded, in);
    ASSERT_TRUE(f.validator.handshake());
    EXPECT_EQ(f.validator.handshake()->version, 5);
    EXPECT_EQ(f.validator.handshake()->tid, 4242U);
    EXPECT_EQ(f.validator.handshake()->pid, 4240U);
    EXPECT_EQ(f.validator.handshake()->dont_mangle_keys, 1);
    const auto& m = f.validator.counts().messages;
    EXPECT_EQ(m[1], 2U);  // "hello" and the empty END string
    for (std::uint8_t c = 2; c <= kMaxCode; ++c) EXPECT_EQ(m[c], 1U) << code_name(c);
    EXPECT_EQ(f.validator.counts().image_bytes, 300U);
    EXPECT_EQ(f.validator.counts().forwarded_bytes, in.size());
    EXPECT_FALSE(f.validator.counts().truncated);
    EXPECT_NE(f.validator.counts().describe().find("CAM job stop 1"), std::string::npos);
}

TEST(StreamValidator, AnySplitGivesTheSameResult) {
    const Bytes in = cat({client::handshake(1, 1), client::every_kind(5, "split", 70'000),
                          client::every_kind(99, "again")});
    const Fed whole = feed(in);
    ASSERT_FALSE(whole.validator.failed());
    std::mt19937 rng(7);
    for (const auto& sizes : std::vector<std::vector<std::size_t>>{
             {1}, {2, 3}, {7, 1, 13}, {4096, 1}, {5}, {19, 64 * 1024 + 3}}) {
        const Fed f = feed(in, sizes);
        EXPECT_FALSE(f.validator.failed());
        EXPECT_EQ(f.forwarded, in);
        EXPECT_EQ(f.validator.counts().messages, whole.validator.counts().messages);
        EXPECT_EQ(f.validator.counts().image_bytes, whole.validator.counts().image_bytes);
    }
    for (int round = 0; round < 20; ++round) {
        std::vector<std::size_t> sizes(16);
        for (auto& s : sizes) s = 1 + rng() % 700;
        const Fed f = feed(in, sizes);
        EXPECT_EQ(f.forwarded, in);
        EXPECT_EQ(f.validator.counts().messages, whole.validator.counts().messages);
    }
}

TEST(StreamValidator, RecordsAreHeldBackUntilWholeAndImagesStreamThrough) {
    const Bytes hs = client::handshake(1, 2);
    const Bytes marker = client::marker_msg(10, "held");
    Bytes image(200'000, 0xab);
    const Bytes visual = client::visual_msg(11, "picture", image);
    StreamValidator v;
    Bytes out;
    v.feed(std::span(hs).first(hs.size() - 1), out);
    EXPECT_TRUE(out.empty()) << "an incomplete handshake is held";
    v.feed(std::span(hs).last(1), out);
    EXPECT_EQ(out, hs);
    v.feed(std::span(marker).first(marker.size() - 1), out);
    EXPECT_EQ(out.size(), hs.size()) << "an incomplete message is held";
    v.feed(std::span(marker).last(1), out);
    EXPECT_EQ(out.size(), hs.size() + marker.size());
    // The visual's head (first 32 KiB of payload) goes out once checked; the rest streams.
    const std::size_t head_end = 5 + 32 * 1024;
    v.feed(std::span(visual).first(head_end + 1000), out);
    EXPECT_EQ(out.size(), hs.size() + marker.size() + head_end + 1000);
    v.feed(std::span(visual).subspan(head_end + 1000), out);
    EXPECT_EQ(out, cat({hs, marker, visual}));
    EXPECT_EQ(v.counts().image_bytes, image.size());
}

TEST(StreamValidator, OlderProtocolVersionsAreRead) {
    // Version 4 packs the counter value as p32; the p64 reader takes it unchanged.
    Bytes v4 = client::handshake(1, 1, 0, "4");
    const Bytes value = client::counter_value_msg(5, 0, 1, -7);
    const Bytes in = cat({v4, value});
    Fed f = feed(in);
    EXPECT_FALSE(f.validator.failed());
    EXPECT_EQ(f.validator.handshake()->version, 4);
    Fed f3 = feed(cat({client::handshake(1, 1, 0, "3"), client::string_msg(1, 0, "x")}));
    EXPECT_FALSE(f3.validator.failed());
    EXPECT_EQ(f3.validator.handshake()->version, 3);
}

struct BadCase {
    const char* name;
    Bytes prefix;  // valid, forwarded
    Bytes bad;     // starts the offending record
    const char* record;
    const char* field;
    const char* message;
    std::uint64_t offset_in_bad;
    ErrorKind kind;
};

TEST(StreamValidator, ProtocolErrorsKeepTheValidPrefixAndNameWhereAndWhy) {
    const Bytes hs = client::handshake(9, 9);
    const Bytes ok = client::string_msg(1, 0, "fine");
    Bytes huge_string{0x01, 0x41, 0x9c, 0x00, 0x00};  // length 40001
    Bytes huge_visual{0x05, 0x00, 0x00, 0x00, 0x02};  // length 32 MiB
    Bytes bad_time = client::message(0x06, {0x80});   // packed time cut by the length
    client::CounterDef def;
    def.title = "T";
    def.name = "N";
    def.units = "U";
    Bytes no_nul = client::counter_msg(def);  // ... 'U' 0, and an empty description
    no_nul.pop_back();                        // cut the units' NUL off...
    no_nul[1] = static_cast<std::uint8_t>(no_nul.size() - 5);  // ...and say so in the length
    const std::uint64_t units_at = no_nul.size() - 1;
    Bytes deps = client::cam_job_set_deps_msg(1, 2, 3, 4, {});
    deps[deps.size() - 1] = 0x3f;  // 63 dependencies in 0 bytes
    const std::vector<BadCase> cases = {
        {"http",
         {},
         Bytes{'G', 'E', 'T', ' ', '/'},
         "annotation handshake",
         "magic",
         "not the annotation protocol",
         0,
         ErrorKind::Malformed},
        {"almost",
         {},
         Bytes{'A', 'N', 'N', 'O', 'T', 'A', 'T', 'X'},
         "annotation handshake",
         "magic",
         "not the annotation protocol",
         7,
         ErrorKind::Malformed},
        {"version",
         {},
         Bytes{'A', 'N', 'N', 'O', 'T', 'A', 'T', 'E', ' ', '9', '\n'},
         "annotation handshake",
         "version",
         "unsupported annotation protocol version 9",
         9,
         ErrorKind::Unsupported},
        {"code", cat({hs, ok}), Bytes{0x42, 0, 0, 0, 0}, "annotation message", "code",
         "unknown message code 0x42", 0, ErrorKind::Malformed},
        {"long string", cat({hs, ok}), huge_string, "annotation message", "length",
         "exceeds the limit", 1, ErrorKind::Limit},
        {"huge visual", cat({hs, ok}), huge_visual, "annotation message", "length",
         "visual annotation of 33554432 bytes exceeds", 1, ErrorKind::Limit},
        // The message's length cuts the time short: a bad message, not a stream that ended.
        {"bad time", cat({hs, ok}), bad_time, "marker message", "time", "truncated", 5,
         ErrorKind::Malformed},
        {"no NUL", cat({hs}), no_nul, "counter message", "units", "no NUL terminator", units_at,
         ErrorKind::Malformed},
        {"deps", cat({hs}), deps, "CAM job set deps message", "dependency count", "does not fit", 9,
         ErrorKind::Malformed},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        const Bytes in = cat({c.prefix, c.bad, client::string_msg(2, 0, "after")});
        for (const auto& sizes : std::vector<std::vector<std::size_t>>{{}, {1}, {3}}) {
            Fed f = feed(in, sizes);
            ASSERT_TRUE(f.validator.failed());
            const Error& e = *f.validator.error();
            EXPECT_EQ(f.forwarded, c.prefix) << e.to_string();
            EXPECT_EQ(e.record, c.record);
            EXPECT_EQ(e.field, c.field);
            EXPECT_EQ(e.offset, c.prefix.size() + c.offset_in_bad) << e.to_string();
            EXPECT_NE(e.message.find(c.message), std::string::npos) << e.message;
            EXPECT_EQ(e.kind, c.kind) << e.to_string();
            // Nothing more is accepted after the error, and finish() forwards nothing.
            Bytes more;
            EXPECT_FALSE(f.validator.feed(client::string_msg(3, 0, "x"), more));
            f.validator.finish(more);
            EXPECT_TRUE(more.empty());
        }
    }
}

TEST(StreamValidator, VisualCapIsConfigurable) {
    StreamLimits limits;
    limits.max_visual_bytes = 1000;
    const Bytes in = cat({client::handshake(1, 1), client::visual_msg(1, "v", Bytes(2000))});
    Fed f = feed(in, {}, limits);
    ASSERT_TRUE(f.validator.failed());
    EXPECT_NE(f.validator.error()->message.find("limit of 1000"), std::string::npos);
    limits.max_visual_bytes = 4000;
    EXPECT_FALSE(feed(in, {}, limits).validator.failed());
}

TEST(StreamValidator, StreamsCutShortAreForwardedAsTheyArrived) {
    const Bytes full = cat({client::handshake(5, 6), client::every_kind(1, "t", 5000)});
    for (std::size_t cut : {std::size_t{3}, std::size_t{15}, std::size_t{21}, full.size() / 2,
                            full.size() - 400, full.size() - 1}) {
        SCOPED_TRACE(cut);
        const Bytes in(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut));
        Fed f = feed(in, {7});
        EXPECT_FALSE(f.validator.failed());
        f.validator.finish(f.forwarded);
        EXPECT_EQ(f.forwarded, in);
        ASSERT_TRUE(f.validator.counts().truncated);
    }
    Fed hs = feed(Bytes{'A', 'N', 'N', 'O'});
    hs.validator.finish(hs.forwarded);
    EXPECT_NE(hs.validator.counts().truncated->find("handshake"), std::string::npos);
    Fed whole = feed(full);
    whole.validator.finish(whole.forwarded);
    EXPECT_FALSE(whole.validator.counts().truncated);
    EXPECT_EQ(whole.forwarded, full);
}

TEST(StreamTokenizer, TokensFollowTheGrammar) {
    StreamLimits limits;
    limits.max_message_bytes = 64;
    StreamTokenizer t(limits);
    const Bytes in = cat({client::handshake(1, 2), client::marker_msg(1, "m"),
                          client::visual_msg(2, "v", Bytes(100, 1)), client::message(0x0d, {})});
    std::span<const std::uint8_t> rest(in);
    std::vector<std::size_t> kinds;
    std::size_t tail_bytes = 0;
    while (auto tok = t.next(rest)) {
        kinds.push_back(tok->index());
        if (auto* m = std::get_if<MessageRecord>(&*tok)) {
            EXPECT_EQ(m->raw.size(), 5 + m->head.size());
            EXPECT_LE(m->head.size(), 64U);
        }
        if (auto* tl = std::get_if<MessageTail>(&*tok)) tail_bytes += tl->bytes.size();
    }
    EXPECT_FALSE(t.error());
    EXPECT_EQ(kinds, (std::vector<std::size_t>{0, 1, 1, 2, 1}));
    EXPECT_EQ(tail_bytes, client::visual_msg(2, "v", Bytes(100, 1)).size() - 5 - 64);
    EXPECT_EQ(t.offset(), in.size());
    EXPECT_FALSE(t.partial_record());
}

}  // namespace
}  // namespace apcgate::collectors::annotate
