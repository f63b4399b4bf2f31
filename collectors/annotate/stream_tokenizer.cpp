// See stream_tokenizer.hpp for the record grammar and byte layout.
#include "collectors/annotate/stream_tokenizer.hpp"

#include <algorithm>

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::collectors::annotate {

namespace {
constexpr const char* kHandshake = "annotation handshake";
constexpr const char* kMessage = "annotation message";

std::string hex(unsigned v) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string s = "0x";
    s += kDigits[(v >> 4) & 0xf];
    s += kDigits[v & 0xf];
    return s;
}
}  // namespace

std::span<const std::uint8_t> StreamTokenizer::held() const {
    if (handed_out_ || state_ == State::Failed || state_ == State::Tail) return {};
    return buf_;
}

std::optional<std::string> StreamTokenizer::partial_record() const {
    const std::string at = " at offset " + std::to_string(record_offset_);
    switch (state_) {
        case State::Magic:
        case State::Version:
        case State::Ids:
            if (offset_ == 0) return std::nullopt;
            return std::string(kHandshake) + at + ": " + std::to_string(offset_) + " bytes";
        case State::Header:
            if (handed_out_ || buf_.empty()) return std::nullopt;
            return std::string(kMessage) + " header" + at + ": " + std::to_string(buf_.size()) +
                   " of 5 bytes";
        case State::Head:
        case State::Tail: {
            const std::uint64_t got = offset_ - record_offset_ - kMessageHeaderBytes;
            return std::string(code_name(code_)) + " message" + at + ": " + std::to_string(got) +
                   " of " + std::to_string(length_) + " payload bytes";
        }
        case State::Failed:
            return std::nullopt;
    }
    return std::nullopt;
}

bool StreamTokenizer::fill(std::span<const std::uint8_t>& in, std::size_t want) {
    const std::size_t n = std::min(in.size(), want - buf_.size());
    buf_.insert(buf_.end(), in.begin(), in.begin() + static_cast<std::ptrdiff_t>(n));
    in = in.subspan(n);
    offset_ += n;
    return buf_.size() == want;
}

std::optional<StreamToken> StreamTokenizer::fail(ErrorKind kind, std::uint64_t offset,
                                                 const char* record, const char* field,
                                                 std::string message) {
    error_ = Error{kind, std::move(message), {}, offset, record, field, {}};
    state_ = State::Failed;
    buf_.clear();
    return std::nullopt;
}

std::optional<StreamToken> StreamTokenizer::next(std::span<const std::uint8_t>& in) {
    if (handed_out_) {
        buf_.clear();
        handed_out_ = false;
    }
    while (!in.empty()) {
        auto token = step(in);
        if (token || state_ == State::Failed) return token;
    }
    return std::nullopt;
}

std::optional<StreamToken> StreamTokenizer::step(std::span<const std::uint8_t>& in) {
    switch (state_) {
        case State::Magic:
            return magic_byte(in);
        case State::Version:
            return version_byte(in);
        case State::Ids:
            return handshake_ids(in);
        case State::Header:
            if (buf_.empty()) record_offset_ = offset_;
            if (!fill(in, kMessageHeaderBytes)) return std::nullopt;
            return on_header();
        case State::Head:
            return message_head(in);
        case State::Tail:
            return message_tail(in);
        case State::Failed:
            return std::nullopt;
    }
    return std::nullopt;
}

// Byte by byte, so a stream that is not the protocol is refused at once.
std::optional<StreamToken> StreamTokenizer::magic_byte(std::span<const std::uint8_t>& in) {
    const std::uint8_t b = in.front();
    if (b != static_cast<std::uint8_t>(kHandshakeMagic[buf_.size()]))
        return fail(ErrorKind::Malformed, offset_, kHandshake, "magic",
                    "not the annotation protocol: byte " + hex(b) +
                        " where the \"ANNOTATE \" handshake should be");
    fill(in, buf_.size() + 1);
    if (buf_.size() == kHandshakeMagic.size()) state_ = State::Version;
    return std::nullopt;
}

std::optional<StreamToken> StreamTokenizer::version_byte(std::span<const std::uint8_t>& in) {
    const std::uint8_t b = in.front();
    if (b == '\n') {
        if (version_digits_ == 0)
            return fail(ErrorKind::Malformed, offset_, kHandshake, "version",
                        "empty protocol version");
        if (version_ < kMinVersion || version_ > kMaxVersion)
            return fail(ErrorKind::Unsupported, offset_ - version_digits_, kHandshake, "version",
                        "unsupported annotation protocol version " + std::to_string(version_) +
                            " (this daemon reads " + std::to_string(kMinVersion) + " to " +
                            std::to_string(kMaxVersion) + ")");
        state_ = State::Ids;
    } else if (b >= '0' && b <= '9') {
        if (++version_digits_ > kMaxVersionDigits)
            return fail(ErrorKind::Malformed, offset_, kHandshake, "version",
                        "protocol version too long");
        version_ = version_ * 10 + (b - '0');
    } else {
        return fail(ErrorKind::Malformed, offset_, kHandshake, "version",
                    "byte " + hex(b) + " in the protocol version");
    }
    fill(in, buf_.size() + 1);
    return std::nullopt;
}

std::optional<StreamToken> StreamTokenizer::handshake_ids(std::span<const std::uint8_t>& in) {
    const std::size_t want = kHandshakeMagic.size() + version_digits_ + 1 + kHandshakeIdBytes;
    if (!fill(in, want)) return std::nullopt;
    wire::ByteReader r(std::span<const std::uint8_t>(buf_).last(kHandshakeIdBytes));
    HandshakeRecord h;
    h.version = version_;
    h.tid = r.u32("tid");
    h.pid = r.u32("pid");
    h.dont_mangle_keys = r.u8("dont_mangle_keys");
    h.raw = buf_;
    handed_out_ = true;
    state_ = State::Header;
    record_offset_ = offset_;
    return h;
}

std::optional<StreamToken> StreamTokenizer::message_head(std::span<const std::uint8_t>& in) {
    if (!fill(in, kMessageHeaderBytes + head_bytes_)) return std::nullopt;
    MessageRecord m{code_, length_, record_offset_, std::span(buf_).subspan(kMessageHeaderBytes),
                    buf_};
    handed_out_ = true;
    state_ = tail_left_ > 0 ? State::Tail : State::Header;
    return m;
}

std::optional<StreamToken> StreamTokenizer::message_tail(std::span<const std::uint8_t>& in) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(tail_left_, in.size()));
    MessageTail t{in.first(n)};
    in = in.subspan(n);
    offset_ += n;
    tail_left_ -= n;
    if (tail_left_ == 0) state_ = State::Header;
    return t;
}

// The header is whole: check the code and the length against the limits before any payload.
std::optional<StreamToken> StreamTokenizer::on_header() {
    wire::ByteReader r(buf_);
    code_ = r.u8("code");
    length_ = r.u32("length");
    if (!known_code(code_))
        return fail(ErrorKind::Malformed, record_offset_, kMessage, "code",
                    "unknown message code " + hex(code_) + ": not the annotation protocol");
    const bool visual = code_ == static_cast<std::uint8_t>(Code::Visual);
    if (visual && length_ > limits_.max_visual_bytes)
        return fail(ErrorKind::Limit, record_offset_ + 1, kMessage, "length",
                    "visual annotation of " + std::to_string(length_) +
                        " bytes exceeds apcgate's limit of " +
                        std::to_string(limits_.max_visual_bytes) +
                        " (the library allows images of any u32 length)");
    if (!visual && length_ > limits_.max_message_bytes)
        return fail(ErrorKind::Limit, record_offset_ + 1, kMessage, "length",
                    std::string(code_name(code_)) + " message of " + std::to_string(length_) +
                        " bytes exceeds the limit of " + std::to_string(limits_.max_message_bytes) +
                        " (the library never sends more than 32 KiB)");
    head_bytes_ = std::min<std::size_t>(length_, limits_.max_message_bytes);
    tail_left_ = length_ - head_bytes_;
    if (head_bytes_ == 0) {
        // No payload at all: the record is whole already.
        MessageRecord m{code_, length_, record_offset_, {}, buf_};
        handed_out_ = true;
        state_ = State::Header;
        return m;
    }
    state_ = State::Head;
    return std::nullopt;
}

}  // namespace apcgate::collectors::annotate
