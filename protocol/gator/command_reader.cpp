#include "protocol/gator/command_reader.hpp"

#include <algorithm>

namespace apcgate::gator {

CommandReader::Item CommandReader::fail(std::string message, std::uint64_t offset,
                                        std::string_view field) {
    Item item;
    item.kind = Kind::Error;
    item.error = Error::at(std::move(message));
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
        const std::uint8_t byte = data[consumed];
        switch (state_) {
            case State::Failed: return {};
            case State::Handshake: {
                ++consumed;
                ++offset_;
                if (skip_lf_) {
                    skip_lf_ = false;
                    if (byte == '\n') continue;
                }
                if (byte == '\n' || byte == '\r' || byte == '\0') {
                    const bool done = line_ == "STREAMLINE";
                    line_.clear();
                    if (done) {
                        state_ = State::Header;
                        skip_lf_ = byte == '\r';
                        return {Kind::HandshakeDone, {}, {}};
                    }
                    continue;  // VERSION lines and anything unknown are discarded
                }
                if (line_.size() >= kMaxHandshakeLine) {
                    return fail("handshake line longer than 64 bytes", offset_ - 1, "line");
                }
                line_.push_back(static_cast<char>(byte));
                continue;
            }
            case State::Header: {
                if (skip_lf_) {
                    skip_lf_ = false;
                    if (byte == '\n') {
                        ++consumed;
                        ++offset_;
                        continue;
                    }
                }
                const std::size_t n = std::min(kHeaderSize - header_len_, data.size() - consumed);
                std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(consumed), n,
                            header_ + header_len_);
                header_len_ += n;
                consumed += n;
                offset_ += n;
                if (header_len_ < kHeaderSize) return {};
                header_len_ = 0;
                const std::uint32_t len = static_cast<std::uint32_t>(header_[1]) |
                                          static_cast<std::uint32_t>(header_[2]) << 8 |
                                          static_cast<std::uint32_t>(header_[3]) << 16 |
                                          static_cast<std::uint32_t>(header_[4]) << 24;
                pending_ = gator::Command{};
                pending_.code = header_[0];
                pending_.offset = offset_ - kHeaderSize;
                if (len > kMaxCommandBody) {
                    const auto slen = static_cast<std::int32_t>(len);
                    return fail(slen < 0 ? "negative command length " + std::to_string(slen)
                                         : "command body of " + std::to_string(len) +
                                               " bytes exceeds the 1 MiB limit",
                                pending_.offset + 1, "length");
                }
                body_len_ = len;
                pending_.body.reserve(len);
                state_ = State::Body;
                if (len == 0) {
                    state_ = State::Header;
                    return {Kind::Command, std::move(pending_), {}};
                }
                continue;
            }
            case State::Body: {
                const std::size_t want = body_len_ - pending_.body.size();
                const std::size_t n = std::min(want, data.size() - consumed);
                pending_.body.insert(pending_.body.end(),
                                     data.begin() + static_cast<std::ptrdiff_t>(consumed),
                                     data.begin() + static_cast<std::ptrdiff_t>(consumed + n));
                consumed += n;
                offset_ += n;
                if (pending_.body.size() < body_len_) return {};
                state_ = State::Header;
                return {Kind::Command, std::move(pending_), {}};
            }
        }
    }
    return {};
}

std::optional<Error> CommandReader::at_eof() const {
    auto make = [this](std::string msg, std::string_view field) {
        Error e = Error::at(std::move(msg));
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
