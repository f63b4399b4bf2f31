// Checks a decoded APC stream against the seed's frame rules (gator-protocol-v6.8.txt,
// "Ordering", "Summary Message", "Block Counter Frame Messages", "Backtrace Frame Messages",
// "External Frame Messages"), in one pass:
//   - the Summary message comes first, exactly once, with the right newline canary;
//   - timestamps never go back within a frame, nor per core across frames of one type (the
//     header core, else the message's core; Block Counter: the key 2 core);
//   - a Block Counter frame starts with a timestamp (key 0);
//   - every counter key is one of captured.xml's, and each key travels only in Counter frames
//     or only in Block Counter frames (Activity Switch keys must be known too);
//   - every Backtrace message ends with End of Message;
//   - an External disconnect frame holds nothing but the id;
//   - every core a frame header or message names (Counter, Block Counter key 2, Annotate,
//     Activity Switch, Idle, CPU Core Name) is one of the cores captured.xml declares:
//     0 <= core < <target cores=...>;
//   - wait states (Activity Switch, Sched Switch) are one of the three the spec defines (0
//     other, 1 contention, 2 I/O), and an Idle state is -1 (running) or >= 0 (in wfi);
//   - the capture holds at least one Activity, Counter or Block Counter message ("Required
//     Messages"; a Block Counter frame counts only with a counter value in it: a timestamp
//     alone populates nothing).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "protocol/apc/decoder.hpp"

namespace apcgate::apc {

struct Violation {
    std::uint64_t offset = 0;  // of the offending message (or frame)
    std::string text;
};

class FrameRuleChecker {
  public:
    // `known_keys` and `cores` are what captured.xml declares (its counters' keys, its
    // target's cores).
    FrameRuleChecker(std::vector<model::CounterKey> known_keys, std::int32_t cores);

    void check(const DecodedFrame& frame);
    // Reports what only the end can tell (no Summary message, no required message) and returns
    // everything.
    std::vector<Violation> finish();

  private:
    void check_message(const DecodedFrame& frame, const DecodedMessage& m);
    // The rules of each kind of message but the Summary.
    void check_body(const DecodedFrame& frame, const DecodedMessage& m);
    void check_block_entry(const DecodedFrame& frame, const DecodedMessage& m, const BlockEntry& b);
    void check_ts(const DecodedFrame& frame, const DecodedMessage& m, std::int32_t core,
                  model::Nanos ts, bool per_core);
    void check_core_ts(FrameType type, std::uint64_t offset, std::int32_t core, model::Nanos ts);
    void check_key(std::uint64_t offset, model::CounterKey key, FrameType used_in);
    void check_core(std::uint64_t offset, std::int64_t core, const char* what);
    void add(std::uint64_t offset, std::string text);

    std::vector<model::CounterKey> known_;  // sorted
    std::int32_t cores_;
    std::vector<Violation> violations_;
    bool any_message_ = false;
    bool required_message_ = false;  // an Activity, Counter or Block Counter value was seen
    std::uint64_t end_offset_ = 0;   // just past the last frame checked
    std::size_t summaries_ = 0;
    // Per frame: last timestamp, and the Block Counter core state.
    model::Nanos frame_ts_ = 0;
    bool frame_has_ts_ = false;
    std::int32_t block_core_ = 0;
    model::Nanos block_ts_ = 0;
    std::map<std::pair<FrameType, std::int32_t>, model::Nanos> last_ts_;
    std::map<model::CounterKey, FrameType> key_frame_;
};

// Convenience: checks a whole decoded stream.
std::vector<Violation> check_frame_rules(std::span<const DecodedFrame> frames,
                                         std::vector<model::CounterKey> known_keys,
                                         std::int32_t cores);

}  // namespace apcgate::apc
