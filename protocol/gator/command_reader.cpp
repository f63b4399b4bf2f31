#include "protocol/gator/command_reader.hpp"

#include <algorithm>

namespace apcgate::gator {

CommandReader::Item CommandReader::fail(ErrorKind kind, std::string message, std::uint64_t offset,
                                        std::string_view field) {
    Item item;
    item.kind = Kind::Error;
    item.error = Error::at(kind, std::move(message));
    item.error.offset = offset;
    item.error.record = state_ == State::Handshake ? "handshake" : "command header";
    state_ = State::Failed;
    item.error.field = std::string(field);
    return item;
}

CommandReader::Item CommandReader::parse(std::span<const std::uint8_t> data,
                                         std::size_t& consumed) {
    consumed = 0;
    while (consumed < data.size()) {
        std::optional<Item> item;
        switch (state_) {
            case State::Failed:
                return {};
            case State::Handshake:
                item = handshake_byte(data, consumed);
                break;
            case State::Header:
                item = header_bytes(data, consumed);
                break;
            case State::Body:
                item = body_bytes(data, consumed);
                break;
        }
        if (item) return std::move(*item);
    }
    return {};
}

std::optional<CommandReader::Item> CommandReader::handshake_byte(std::span<const std::uint8_t> data,
                                                                 std::size_t& consumed) {
    const std::uint8_t byte = data[consumed];
    ++consumed;
    ++offset_;
    if (skip_lf_) {
        skip_lf_ = false;
        if (byte == '\n') return std::nullopt;
    }
    if (byte == '\n' || byte == '\r' || byte == '\0') {
        const bool done = line_ == "STREAMLINE";
        line_.clear();
        if (!done) return std::nullopt;  // VERSION lines and anything unknown are discarded
        state_ = State::Header;
        skip_lf_ = byte == '\r';
        return Item{Kind::HandshakeDone, {}, {}};
    }
    if (line_.size() >= kMaxHandshakeLine)
        return fail(ErrorKind::Limit, "handshake line longer than 64 bytes", offset_ - 1, "line");
    line_.push_back(static_cast<char>(byte));
    return std::nullopt;
}

std::optional<CommandReader::Item> CommandReader::header_bytes(std::span<const std::uint8_t> data,
                                                               std::size_t& consumed) {
    if (skip_lf_) {
        skip_lf_ = false;
        if (data[consumed] == '\n') {
            ++consumed;
            ++offset_;
            return std::nullopt;
        }
    }
    const std::size_t n = std::min(kHeaderSize - header_len_, data.size() - consumed);
    std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(consumed), n, header_ + header_len_);
    header_len_ += n;
    consumed += n;
    offset_ += n;
    if (header_len_ < kHeaderSize) return Item{};
    header_len_ = 0;
    return start_command();
}

// The header is whole: check its length before any body byte is buffered.
std::optional<CommandReader::Item> CommandReader::start_command() {
    const std::uint32_t len =
        static_cast<std::uint32_t>(header_[1]) | static_cast<std::uint32_t>(header_[2]) << 8 |
        static_cast<std::uint32_t>(header_[3]) << 16 | static_cast<std::uint32_t>(header_[4]) << 24;
    pending_ = gator::Command{};
    pending_.code = header_[0];
    pending_.offset = offset_ - kHeaderSize;
    if (len > kMaxCommandBody) {
        const auto slen = static_cast<std::int32_t>(len);
        return fail(
            slen < 0 ? ErrorKind::Malformed : ErrorKind::Limit,
            slen < 0 ? "negative command length " + std::to_string(slen)
                     : "command body of " + std::to_string(len) + " bytes exceeds the 1 MiB limit",
            pending_.offset + 1, "length");
    }
    body_len_ = len;
    pending_.body.reserve(len);
    state_ = State::Body;
    if (len == 0) {
        state_ = State::Header;
        return Item{Kind::Command, std::move(pending_), {}};
    }
    return std::nullopt;
}

std::optional<CommandReader::Item> CommandReader::body_bytes(std::span<const std::uint8_t> data,
                                                             std::size_t& consumed) {
    const std::size_t want = body_len_ - pending_.body.size();
    const std::size_t n = std::min(want, data.size() - consumed);
    pending_.body.insert(pending_.body.end(), data.begin() + static_cast<std::ptrdiff_t>(consumed),
                         data.begin() + static_cast<std::ptrdiff_t>(consumed + n));
    consumed += n;
    offset_ += n;
    if (pending_.body.size() < body_len_) return Item{};
    state_ = State::Header;
    return Item{Kind::Command, std::move(pending_), {}};
}

std::optional<Error> CommandReader::at_eof() const {
    auto make = [this](std::string msg, std::string_view field) {
        Error e = Error::at(ErrorKind::Truncated, std::move(msg));
        e.offset = offset_;
        e.record = "command";
        e.field = std::string(field);
        return e;
    };
    if (state_ == State::Header && header_len_ > 0)
        return make("connection closed inside a command header (" + std::to_string(header_len_) +
                        " of 5 bytes)",
                    "header");
    if (state_ == State::Body)
        return make("connection closed inside a " + std::string(command_name(pending_.code)) +
                        " body (" + std::to_string(pending_.body.size()) + " of " +
                        std::to_string(body_len_) + " bytes)",
                    "body");
    return std::nullopt;
}

}  // namespace apcgate::gator
