#include "collectors/annotate/stream_validator.hpp"

#include <numeric>

#include "collectors/annotate/message_parser.hpp"

namespace apcgate::collectors::annotate {

std::uint64_t StreamCounts::total_messages() const {
    return std::accumulate(messages.begin(), messages.end(), std::uint64_t{0});
}

std::string StreamCounts::describe() const {
    std::string out;
    for (std::size_t c = 1; c < messages.size(); ++c) {
        if (messages[c] == 0) continue;
        if (!out.empty()) out += ", ";
        out += std::string(kCodeNames[c]) + " " + std::to_string(messages[c]);
    }
    return out.empty() ? "no messages" : out;
}

void StreamValidator::emit(std::span<const std::uint8_t> bytes,
                           std::vector<std::uint8_t>& forward) {
    forward.insert(forward.end(), bytes.begin(), bytes.end());
    counts_.forwarded_bytes += bytes.size();
}

bool StreamValidator::feed(std::span<const std::uint8_t> bytes,
                           std::vector<std::uint8_t>& forward) {
    if (failed() || finished_) return false;
    while (auto token = tokenizer_.next(bytes)) {
        if (auto* h = std::get_if<HandshakeRecord>(&*token)) {
            emit(h->raw, forward);
            handshake_ = *h;
            handshake_->raw = {};
        } else if (auto* m = std::get_if<MessageRecord>(&*token)) {
            auto parsed = parse_message(*m);
            if (!parsed) {
                error_ = std::move(parsed).take_error();
                return false;
            }
            emit(m->raw, forward);
            ++counts_.messages[m->code];
            if (const auto* v = std::get_if<VisualMsg>(&parsed.value())) {
                // The image part of the head went out with it; the rest follows as tails.
                counts_.image_bytes += m->head.size() - (m->length - v->image_bytes);
            }
        } else {
            const auto& tail = std::get<MessageTail>(*token).bytes;
            emit(tail, forward);
            counts_.image_bytes += tail.size();
        }
    }
    return !failed();
}

void StreamValidator::finish(std::vector<std::uint8_t>& forward) {
    if (finished_) return;
    finished_ = true;
    if (failed()) return;
    counts_.truncated = tokenizer_.partial_record();
    emit(tokenizer_.held(), forward);
}

}  // namespace apcgate::collectors::annotate
