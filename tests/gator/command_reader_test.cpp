// The command reader fed whole buffers and one byte at a time must yield the same items; every
// bad input is a fatal error with the offset of the offending bytes.
#include "protocol/gator/command_reader.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace apcgate::gator {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes bytes(std::string_view s) {
    return Bytes(s.begin(), s.end());
}

Bytes command(std::uint8_t code, std::string_view body) {
    Bytes out{code};
    const auto n = static_cast<std::uint32_t>(body.size());
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(n >> (8 * i)));
    out.insert(out.end(), body.begin(), body.end());
    return out;
}

Bytes cat(std::initializer_list<Bytes> parts) {
    Bytes out;
    for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

struct Parsed {
    int handshakes = 0;
    std::vector<Command> commands;
    std::optional<Error> error;
};

Parsed feed(const Bytes& input, std::size_t chunk) {
    CommandReader reader;
    Parsed out;
    std::size_t pos = 0;
    while (pos < input.size() && !out.error) {
        const std::size_t n = std::min(chunk, input.size() - pos);
        std::span<const std::uint8_t> data(input.data() + pos, n);
        while (!data.empty()) {
            std::size_t used = 0;
            auto item = reader.parse(data, used);
            data = data.subspan(used);
            pos += used;
            if (item.kind == CommandReader::Kind::HandshakeDone) ++out.handshakes;
            if (item.kind == CommandReader::Kind::Command) out.commands.push_back(item.command);
            if (item.kind == CommandReader::Kind::Error) {
                out.error = item.error;
                break;
            }
            if (item.kind == CommandReader::Kind::NeedMore) break;
        }
    }
    if (!out.error) out.error = reader.at_eof();
    return out;
}

const Bytes kSession =
    cat({bytes("VERSION 680\nSTREAMLINE\n"), command(0, "<request type=\"events\"/>"),
         command(5, ""), command(1, "<session version=\"1\"/>"), command(2, ""), command(3, "")});

TEST(CommandReader, WholeBufferAndByteByByteAgree) {
    for (std::size_t chunk : {kSession.size(), std::size_t{1}, std::size_t{2}, std::size_t{7}}) {
        const Parsed p = feed(kSession, chunk);
        EXPECT_EQ(p.handshakes, 1) << chunk;
        EXPECT_FALSE(p.error) << chunk;
        ASSERT_EQ(p.commands.size(), 5U) << chunk;
        EXPECT_EQ(p.commands[0].code, 0);
        EXPECT_EQ(p.commands[0].text(), "<request type=\"events\"/>");
        EXPECT_EQ(p.commands[1].code, 5);
        EXPECT_TRUE(p.commands[1].body.empty());
        EXPECT_EQ(p.commands[2].text(), "<session version=\"1\"/>");
        EXPECT_EQ(p.commands[4].code, 3);
        EXPECT_EQ(p.commands[0].offset, 23U);  // right after the two handshake lines
    }
}

TEST(CommandReader, HandshakeToleratesCrNulAndNoise) {
    for (const char* hs : {"STREAMLINE\r", "STREAMLINE\r\n", "STREAMLINE",
                           "junk\rVERSION 1\nSTREAMLINE\n", "\n\nSTREAMLINE\n"}) {
        std::string s(hs);
        if (s == "STREAMLINE") s.push_back('\0');
        const Parsed p = feed(cat({bytes(s), command(5, "")}), 1);
        EXPECT_EQ(p.handshakes, 1) << hs;
        ASSERT_EQ(p.commands.size(), 1U) << hs;
        EXPECT_EQ(p.commands[0].code, 5) << hs;
    }
}

TEST(CommandReader, UnknownCodeIsACommandNotAnError) {
    const Parsed p = feed(cat({bytes("STREAMLINE\n"), command(42, "xy"), command(5, "")}), 3);
    EXPECT_FALSE(p.error);
    ASSERT_EQ(p.commands.size(), 2U);
    EXPECT_EQ(p.commands[0].code, 42);
    EXPECT_EQ(command_name(42), std::string("unknown"));
}

TEST(CommandReader, OverlongHandshakeLineIsFatal) {
    const Parsed p = feed(bytes(std::string(65, 'A') + "\n"), 5);
    ASSERT_TRUE(p.error);
    EXPECT_EQ(*p.error->offset, 64U);
    EXPECT_EQ(p.error->record, "handshake");
    EXPECT_EQ(p.error->kind, ErrorKind::Limit);
}

TEST(CommandReader, BodyOverOneMebibyteIsFatal) {
    Bytes b = bytes("STREAMLINE\n");
    b.insert(b.end(), {1, 0x01, 0x00, 0x10, 0x00});  // 1 MiB + 1
    const Parsed p = feed(b, 1);
    ASSERT_TRUE(p.error);
    EXPECT_NE(p.error->message.find("exceeds the 1 MiB limit"), std::string::npos);
    EXPECT_EQ(*p.error->offset, 12U);
    EXPECT_EQ(p.error->field, "length");
    EXPECT_EQ(p.error->kind, ErrorKind::Limit);
}

TEST(CommandReader, ExactlyOneMebibyteIsAccepted) {
    const std::string body(kMaxCommandBody, 'x');
    const Parsed p = feed(cat({bytes("STREAMLINE\n"), command(1, body)}), 4096);
    EXPECT_FALSE(p.error);
    ASSERT_EQ(p.commands.size(), 1U);
    EXPECT_EQ(p.commands[0].body.size(), kMaxCommandBody);
}

TEST(CommandReader, NegativeLengthIsFatal) {
    Bytes b = bytes("STREAMLINE\n");
    b.insert(b.end(), {0, 0xFF, 0xFF, 0xFF, 0xFF});
    const Parsed p = feed(b, 2);
    ASSERT_TRUE(p.error);
    EXPECT_NE(p.error->message.find("negative"), std::string::npos);
    EXPECT_EQ(p.error->kind, ErrorKind::Malformed);
}

TEST(CommandReader, TruncatedHeaderAndBodyAtEof) {
    Parsed p = feed(cat({bytes("STREAMLINE\n"), Bytes{0, 5, 0}}), 1);
    ASSERT_TRUE(p.error);
    EXPECT_NE(p.error->message.find("inside a command header (3 of 5"), std::string::npos);
    EXPECT_EQ(p.error->kind, ErrorKind::Truncated);
    p = feed(cat({bytes("STREAMLINE\n"), Bytes{1, 10, 0, 0, 0, 'a', 'b'}}), 1);
    ASSERT_TRUE(p.error);
    EXPECT_NE(p.error->message.find("Deliver XML body (2 of 10"), std::string::npos);
    EXPECT_EQ(p.error->kind, ErrorKind::Truncated);
    p = feed(cat({bytes("STREAMLINE\n"), command(5, "")}), 1);
    EXPECT_FALSE(p.error);  // a clean end between commands is not an error
}

TEST(CommandReader, NothingIsReadAfterAnError) {
    CommandReader reader;
    Bytes b = bytes(std::string(70, 'Z'));
    std::size_t used = 0;
    auto item = reader.parse(b, used);
    ASSERT_EQ(item.kind, CommandReader::Kind::Error);
    const Bytes more = bytes("STREAMLINE\n");
    item = reader.parse(more, used);
    EXPECT_EQ(item.kind, CommandReader::Kind::NeedMore);
    EXPECT_EQ(used, 0U);
}

TEST(Response, HeaderIsCodeThenLittleEndianLength) {
    EXPECT_EQ(response(ResponseCode::Nak, "no"), (Bytes{5, 2, 0, 0, 0, 'n', 'o'}));
    const auto h = response_header(ResponseCode::ApcData, 0x01020304);
    EXPECT_EQ(Bytes(h.begin(), h.end()), (Bytes{3, 4, 3, 2, 1}));
    EXPECT_EQ(response(ResponseCode::Error, "")[0], 0xFF);
}

}  // namespace
}  // namespace apcgate::gator
