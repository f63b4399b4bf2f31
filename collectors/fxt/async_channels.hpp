// Async and flow events as Streamline annotation spans: one annotation group "async", one channel
// per correlation id ("async 17", "flow 4"), a further channel per nesting depth when async
// spans of one id nest. A span opens with a non-empty string on its channel and closes with an
// empty one (the SpanChannels convention); a flow step replaces the flow's text from its time.
//
// Group and channel ids come from a range far above the ones SpanChannels counts up from 1, so
// both can share one capture without an id being named twice.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::fxt {

class AsyncChannels {
  public:
    static constexpr std::int32_t kGroup = 0x40000000;
    static constexpr std::size_t kMaxChannels = 65536;  // beyond this, spans are dropped

    enum class Result { Done, Unmatched, TooManyChannels };

    Result open(model::Nanos ts, std::int32_t tid, bool flow, std::uint64_t id, std::string text,
                std::vector<model::Event>& out);
    // Flow step: shows `text` on the flow's channel (opening it if the begin was lost).
    Result step(model::Nanos ts, std::int32_t tid, std::uint64_t id, std::string text,
                std::vector<model::Event>& out);
    Result close(model::Nanos ts, std::int32_t tid, bool flow, std::uint64_t id,
                 std::vector<model::Event>& out);

    [[nodiscard]] std::size_t channels() const { return channels_.size(); }

  private:
    using Key = std::tuple<bool, std::uint64_t, int>;  // (flow, id, depth)
    std::int32_t channel(model::Nanos ts, std::int32_t tid, const Key& key,
                         std::vector<model::Event>& out);
    void annotate(model::Nanos ts, std::int32_t tid, std::int32_t channel, std::string text,
                  std::vector<model::Event>& out);

    std::map<Key, std::int32_t> channels_;
    std::map<std::pair<bool, std::uint64_t>, int> open_;  // spans open per id (entries > 0 only)
    bool group_named_ = false;
    std::int32_t next_channel_ = kGroup + 1;
};

}  // namespace apcgate::collectors::fxt
