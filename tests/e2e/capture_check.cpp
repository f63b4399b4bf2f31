#include "capture_check.hpp"

#include <cstdint>

#include "protocol/wire/byte_text.hpp"

namespace apcgate::e2e {

namespace {

StreamResult read_until(HostClient& c, std::chrono::milliseconds timeout, std::size_t enough,
                        int ping_every, int* pings_sent) {
    StreamResult out;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline && out.frames.size() < enough) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        auto r = c.read(left);
        if (!r) break;
        if (r->code == kApcData && r->body.empty()) {
            out.end_of_sequence = true;
            break;
        }
        if (r->code == kApcData) {
            out.frames.push_back(std::move(r->body));
            if (ping_every > 0 && out.frames.size() % static_cast<std::size_t>(ping_every) == 0) {
                c.send_command(kPing);
                if (pings_sent != nullptr) ++*pings_sent;
            }
        } else if (r->code == kAck) {
            ++out.acks;
        } else {
            out.other.push_back(std::move(*r));
        }
    }
    return out;
}

}  // namespace

StreamResult read_stream(HostClient& c, std::chrono::milliseconds timeout, int ping_every,
                         int* pings_sent) {
    return read_until(c, timeout, SIZE_MAX, ping_every, pings_sent);
}

StreamResult read_frames(HostClient& c, std::size_t count, std::chrono::milliseconds give_up) {
    return read_until(c, give_up, count, 0, nullptr);
}

CheckedCapture check_capture(const std::vector<std::string>& bodies,
                             const xml::CapturedDoc& captured) {
    CheckedCapture out;
    std::vector<model::CounterKey> keys;
    for (const auto& c : captured.counters) keys.push_back(c.key);
    apc::FrameRuleChecker rules(keys, captured.info.target.cores);
    std::uint64_t offset = 0;
    for (const auto& b : bodies) {
        const std::span<const std::uint8_t> body = wire::bytes_of(b);
        auto f = apc::decode_frame(body, offset);
        offset += b.size();
        if (!f) {
            out.errors.push_back(f.error().to_string());
            continue;
        }
        rules.check(*f);
        for (const auto& m : f->messages) {
            if (const auto* s = std::get_if<model::CounterSample>(&m.body))
                ++out.values_per_key[s->key];
            if (const auto* e = std::get_if<apc::BlockEntry>(&m.body); e && e->key > 2)
                ++out.values_per_key[e->key];
            if (std::holds_alternative<model::ThreadName>(m.body)) ++out.thread_names;
            if (std::holds_alternative<model::ProcComm>(m.body)) ++out.proc_comms;
            if (std::holds_alternative<apc::SummaryMessage>(m.body)) ++out.summaries;
        }
        out.frames.push_back(std::move(f).value());
    }
    for (const auto& v : rules.finish())
        out.errors.push_back(std::to_string(v.offset) + ": " + v.text);
    return out;
}

}  // namespace apcgate::e2e
