#include "daemon/analysis/connection_annotations.hpp"

#include "collectors/annotate/message_parser.hpp"

namespace apcgate::daemon::analysis {

void ConnectionAnnotations::data(std::int32_t id, std::span<const std::uint8_t> bytes) {
    auto it = open_.find(id);
    if (it == open_.end()) {
        if (open_.size() >= kMaxConnections) {
            not_followed_ += bytes.size();
            return;
        }
        it = open_.emplace(id, std::make_unique<Connection>()).first;
        it->second->serial = next_serial_++;
    }
    Connection& c = *it->second;
    if (c.failed) return;
    while (auto token = c.tokens.next(bytes)) {
        const auto* m = std::get_if<collectors::annotate::MessageRecord>(&*token);
        if (m == nullptr) continue;  // the handshake, a visual's image bytes
        auto parsed = collectors::annotate::parse_message(*m);
        if (!parsed) {
            c.failed = true;
            ++broken_;
            return;
        }
        ++messages_;
        if (const auto* s = std::get_if<collectors::annotate::StringMsg>(&*parsed)) {
            spans_.connection_annotation(c.serial, s->time - zero_, s->channel, s->text);
        } else if (const auto* mk = std::get_if<collectors::annotate::MarkerMsg>(&*parsed)) {
            spans_.marker(mk->text);
        }
    }
    if (c.tokens.error()) {
        c.failed = true;
        // Refused within the handshake's magic: another kind of stream (gatord relays its
        // ftrace text, "FTRACE 1\n...", the same way), not a broken annotation connection.
        if (c.tokens.offset() < collectors::annotate::kHandshakeMagic.size()) {
            ++foreign_;
        } else {
            ++broken_;
        }
    }
}

void ConnectionAnnotations::disconnect(std::int32_t id) {
    open_.erase(id);
}

void ConnectionAnnotations::fill(Report& r) const {
    if (foreign_ > 0)
        r.notes.push_back(std::to_string(foreign_) +
                          " External streams do not begin with the annotation protocol's "
                          "handshake (gatord's ftrace text, say): not read");
    r.losses.add(AnalysisStat::AnnotationConnectionsBroken, broken_);
    r.losses.add(AnalysisStat::AnnotationBytesNotFollowed, not_followed_,
                 "past " + std::to_string(kMaxConnections) + " connections open at once");
}

}  // namespace apcgate::daemon::analysis
