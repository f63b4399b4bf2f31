// The frame rule checker (see frame_rules.hpp for the rules and their spec sections).
#include "protocol/apc/frame_rules.hpp"

#include <algorithm>

namespace apcgate::apc {

FrameRuleChecker::FrameRuleChecker(std::vector<model::CounterKey> known_keys, std::int32_t cores)
    : known_(std::move(known_keys)), cores_(cores) {
    std::sort(known_.begin(), known_.end());
}

void FrameRuleChecker::add(std::uint64_t offset, std::string text) {
    violations_.push_back({offset, std::move(text)});
}

void FrameRuleChecker::check_core(std::uint64_t offset, std::int64_t core, const char* what) {
    if (core >= 0 && core < cores_) return;
    add(offset, std::string(what) + " core " + std::to_string(core) + " is not one of the " +
                    std::to_string(cores_) + " cores captured.xml declares");
}

namespace {
bool known_wait_state(model::WaitState w) {
    const auto v = static_cast<std::int32_t>(w);
    return v >= 0 && v <= 2;
}
}  // namespace

void FrameRuleChecker::check(const DecodedFrame& frame) {
    frame_has_ts_ = false;
    block_core_ = frame.core;
    end_offset_ = std::max(end_offset_, frame.offset + frame.size);
    if (frame_has_core(frame.type)) check_core(frame.offset, frame.core, "frame header");
    if (frame.type == FrameType::BlockCounter && !frame.messages.empty()) {
        const auto* first = std::get_if<BlockEntry>(&frame.messages.front().body);
        if (first == nullptr || first->key != 0)
            add(frame.offset, "Block Counter frame does not start with a timestamp (key 0)");
    }
    for (const auto& m : frame.messages) check_message(frame, m);
}

void FrameRuleChecker::check_ts(const DecodedFrame& frame, const DecodedMessage& m,
                                std::int32_t core, model::Nanos ts, bool per_core) {
    if (!frame_has_ts_ || ts >= frame_ts_) {
        frame_ts_ = ts;
    } else {
        add(m.offset, "timestamp " + std::to_string(ts) + " before " + std::to_string(frame_ts_) +
                          " earlier in this " + to_string(frame.type) + " frame");
    }
    frame_has_ts_ = true;
    if (per_core) check_core_ts(frame.type, m.offset, core, ts);
}

void FrameRuleChecker::check_core_ts(FrameType type, std::uint64_t offset, std::int32_t core,
                                     model::Nanos ts) {
    auto [it, fresh] = last_ts_.try_emplace({type, core}, ts);
    if (fresh) return;
    if (ts < it->second) {
        add(offset, "timestamp " + std::to_string(ts) + " before " + std::to_string(it->second) +
                        " of an earlier " + to_string(type) + " message on core " +
                        std::to_string(core));
    } else {
        it->second = ts;
    }
}

void FrameRuleChecker::check_key(std::uint64_t offset, model::CounterKey key, FrameType used_in) {
    if (!std::binary_search(known_.begin(), known_.end(), key)) {
        add(offset, "counter key " + std::to_string(key) + " is not in captured.xml");
        return;
    }
    if (used_in == FrameType::Activity) return;
    auto [it, fresh] = key_frame_.try_emplace(key, used_in);
    if (!fresh && it->second != used_in) {
        add(offset, "counter key " + std::to_string(key) +
                        " appears in both Counter and Block "
                        "Counter frames");
    }
}

void FrameRuleChecker::check_message(const DecodedFrame& f, const DecodedMessage& m) {
    const bool first = !any_message_;
    any_message_ = true;
    if (const auto* s = std::get_if<SummaryMessage>(&m.body)) {
        if (++summaries_ > 1)
            add(m.offset, "more than one Summary message");
        else if (!first)
            add(m.offset, "Summary message is not the first message");
        if (s->canary != kNewlineCanary) add(m.offset, "wrong newline canary");
        return;
    }
    if (first) add(m.offset, "first message is not the Summary message");
    check_body(f, m);
}

void FrameRuleChecker::check_block_entry(const DecodedFrame& f, const DecodedMessage& m,
                                         const BlockEntry& b) {
    if (b.key == 0) {
        block_core_ = f.core;
        block_ts_ = b.value;
        check_ts(f, m, 0, b.value, false);
    } else if (b.key == 2) {
        check_core(m.offset, b.value, "Block Counter (key 2)");
        block_core_ = static_cast<std::int32_t>(b.value);
    } else if (b.key != 1) {
        required_message_ = true;
        // The block's timestamp applies to each core its values are for.
        check_core_ts(f.type, m.offset, block_core_, block_ts_);
        check_key(m.offset, b.key, FrameType::BlockCounter);
    }
}

void FrameRuleChecker::check_body(const DecodedFrame& f, const DecodedMessage& m) {
    const std::uint64_t at = m.offset;
    std::visit(
        [&](const auto& b) {
            using T = std::decay_t<decltype(b)>;
            if constexpr (std::is_same_v<T, model::CounterSample>) {
                required_message_ = true;
                check_core(at, b.core, "Counter message");
                check_ts(f, m, b.core, b.ts, true);
                check_key(at, b.key, FrameType::Counter);
            } else if constexpr (std::is_same_v<T, BlockEntry>) {
                check_block_entry(f, m, b);
            } else if constexpr (std::is_same_v<T, BacktraceMessage>) {
                check_ts(f, m, f.core, b.backtrace.ts, true);
                if (!b.end_of_message) add(at, "Backtrace message without End of Message");
            } else if constexpr (std::is_same_v<T, model::ActivitySwitch>) {
                required_message_ = true;
                check_core(at, b.core, "Activity Switch message");
                if (!known_wait_state(b.wait))
                    add(at, "Activity Switch wait state " +
                                std::to_string(static_cast<std::int32_t>(b.wait)) +
                                " is none of 0 (other), 1 (contention), 2 (I/O)");
                check_ts(f, m, b.core, b.ts, true);
                check_key(at, b.key, FrameType::Activity);
            } else if constexpr (std::is_same_v<T, model::ActivityLink> ||
                                 std::is_same_v<T, model::TaskExit>) {
                required_message_ = true;
                check_ts(f, m, 0, b.ts, false);  // no core: only the in-frame order applies
            } else if constexpr (std::is_same_v<T, AnnotateMessage>) {
                check_core(at, b.core, "Annotate message");
                check_ts(f, m, b.core, b.ts, true);
            } else if constexpr (std::is_same_v<T, model::Idle>) {
                check_core(at, b.core, "Idle message");
                if (b.state < -1)
                    add(at, "Idle state " + std::to_string(b.state) +
                                " is neither -1 (running) nor >= 0 (in wfi)");
                check_ts(f, m, b.core, b.ts, true);
            } else if constexpr (std::is_same_v<T, model::CoreName>) {
                check_core(at, b.core, "CPU Core Name message");
            } else if constexpr (std::is_same_v<T, model::ThreadName> ||
                                 std::is_same_v<T, model::SchedSwitch> ||
                                 std::is_same_v<T, model::SchedThreadExit>) {
                if constexpr (std::is_same_v<T, model::SchedSwitch>) {
                    if (!known_wait_state(b.state))
                        add(at, "Sched Switch state " +
                                    std::to_string(static_cast<std::int32_t>(b.state)) +
                                    " is none of 0 (other), 1 (contention), 2 (I/O)");
                }
                check_ts(f, m, f.core, b.ts, true);
            } else if constexpr (std::is_same_v<T, DisconnectMessage>) {
                if (b.trailing_bytes != 0)
                    add(at, "External disconnect frame has " + std::to_string(b.trailing_bytes) +
                                " bytes after the id");
            }
        },
        m.body);
}

std::vector<Violation> FrameRuleChecker::finish() {
    if (summaries_ == 0) add(0, "no Summary message");
    if (!required_message_)
        add(end_offset_,
            "no Activity, Counter or Block Counter message up to the end of the data: a valid "
            "capture holds at least one (Required Messages)");
    return std::move(violations_);
}

std::vector<Violation> check_frame_rules(std::span<const DecodedFrame> frames,
                                         std::vector<model::CounterKey> known_keys,
                                         std::int32_t cores) {
    FrameRuleChecker c(std::move(known_keys), cores);
    for (const auto& f : frames) c.check(f);
    return c.finish();
}

}  // namespace apcgate::apc
