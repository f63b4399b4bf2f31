// Turns decoded frames back into model events (see EventRebuilder in decoder.hpp). The Block
// Counter state machine follows the seed: key 0 starts a block at a timestamp with the core of
// the frame header and no pid; key 2 switches core and key 1 the pid (0: none) until the next
// timestamp.
#include <algorithm>

#include "protocol/apc/annotation_bytes.hpp"
#include "protocol/apc/decoder.hpp"

namespace apcgate::apc {

namespace {

struct BlockState {
    bool has_ts = false;
    model::Nanos ts = 0;
    std::int32_t core = 0;
    std::int32_t pid = 0;
};

// Converts one decoded message into its event, where it maps to exactly one.
struct ToEvent {
    std::vector<model::Event>& out;

    void operator()(const SummaryMessage&) const {}
    void operator()(const BacktraceMessage& m) const { out.emplace_back(m.backtrace); }
    void operator()(const BlockEntry&) const {}       // needs the block state: see add()
    void operator()(const AnnotateMessage&) const {}  // needs reassembly: see add()
    void operator()(const DisconnectMessage& m) const {
        out.emplace_back(model::ExternalDisconnect{0, m.id});
    }
    template <typename T>
    void operator()(const T& event) const {
        out.emplace_back(event);
    }
};

}  // namespace

Status EventRebuilder::add(const DecodedFrame& frame) {
    BlockState block;
    block.core = frame.core;
    for (const auto& m : frame.messages) {
        if (const auto* e = std::get_if<BlockEntry>(&m.body)) {
            if (e->key == 0) {
                block = BlockState{true, e->value, frame.core, 0};
                continue;
            }
            if (!block.has_ts) {
                Error err = Error::at(ErrorKind::Malformed,
                                      "Block Counter value before any timestamp (key 0)");
                err.offset = m.offset;
                err.record = "Block Counter message";
                err.field = "key";
                return err;
            }
            if (e->key == 1) {
                block.pid = static_cast<std::int32_t>(e->value);
            } else if (e->key == 2) {
                block.core = static_cast<std::int32_t>(e->value);
            } else {
                events_.emplace_back(model::CounterSample{block.ts, block.core, e->key, e->value,
                                                          block.pid > 0 ? block.pid : -1});
            }
        } else if (const auto* a = std::get_if<AnnotateMessage>(&m.body)) {
            if (Status s = add_annotation(m.offset, *a); !s.ok()) return s;
        } else {
            std::visit(ToEvent{events_}, m.body);
        }
    }
    return {};
}

Status EventRebuilder::add_annotation(std::uint64_t offset, const AnnotateMessage& m) {
    auto it = std::find_if(pending_.begin(), pending_.end(),
                           [&](const Pending& p) { return p.tid == m.tid; });
    if (it == pending_.end()) it = pending_.insert(pending_.end(), Pending{m.tid, 0, 0, 0, {}});
    Pending& p = *it;
    if (p.bytes.empty()) {
        p.core = m.core;
        p.ts = m.ts;
        p.offset = offset;
    }
    p.bytes.insert(p.bytes.end(), m.bytes.begin(), m.bytes.end());
    std::size_t used = 0;
    for (;;) {
        const auto rest = std::span<const std::uint8_t>(p.bytes).subspan(used);
        auto len = annotation_length(rest, p.offset);
        if (!len.ok()) return std::move(len).take_error();
        if (!len.value()) break;
        auto body = parse_annotation(rest.first(**len), p.offset);
        if (!body.ok()) return std::move(body).take_error();
        events_.emplace_back(model::Annotation{p.ts, p.core, p.tid, std::move(body).value()});
        used += **len;
        // What follows started in this message.
        p.core = m.core;
        p.ts = m.ts;
        p.offset = offset;
    }
    p.bytes.erase(p.bytes.begin(), p.bytes.begin() + static_cast<std::ptrdiff_t>(used));
    return {};
}

std::size_t EventRebuilder::pending_annotation_bytes() const {
    std::size_t n = 0;
    for (const auto& p : pending_) n += p.bytes.size();
    return n;
}

Result<std::vector<model::Event>> rebuild_events(std::span<const DecodedFrame> frames) {
    EventRebuilder b;
    for (const auto& f : frames)
        if (Status s = b.add(f); !s.ok()) return std::move(s).take_error();
    return std::move(b.events());
}

}  // namespace apcgate::apc
