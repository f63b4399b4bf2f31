// Where an event without a dedicated mapping shows in Streamline: a string annotation on a
// channel named after the event, in a group per process (the vpid/pid context LTTng-UST adds)
// or, when the trace says nothing about processes (barectf, kernel events), per data stream.
// Each group and channel is named (Create Group / Create Channel) once, before its first use;
// ids are unique in the capture. The number of groups and channels is bounded: past the limit,
// events share one overflow channel rather than growing the tables. An annotation lasts until
// the next one on its channel; the last ones are ended when the trace ends.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::ctf {

inline constexpr std::size_t kMaxChannels = 65536;

class AnnotationChannels {
  public:
    // The group of process `pid`, named "NAME (pid N)" (or "pid N") when it is created.
    std::int32_t process_group(model::Nanos ts, std::int32_t tid, std::int64_t pid,
                               std::string_view procname, std::vector<model::Event>& out);
    // The group of a data stream (`serial` is unique per stream), named `name`.
    std::int32_t stream_group(model::Nanos ts, std::uint64_t serial, std::string_view name,
                              std::vector<model::Event>& out);
    // The channel of event class number `event_index` in `group`, named `event_name`.
    std::int32_t channel(model::Nanos ts, std::int32_t tid, std::int32_t group,
                         std::uint32_t event_index, std::string_view event_name,
                         std::vector<model::Event>& out);

    // The last annotation on `channel` (by `tid` on `core`) is open until the next one on it.
    void opened(std::int32_t channel, std::int32_t tid, std::int32_t core);
    // Ends every open annotation at `ts` (the end of the trace).
    void close_all(model::Nanos ts, std::vector<model::Event>& out);

    [[nodiscard]] std::size_t channel_count() const { return channels_.size(); }

  private:
    std::int32_t group(model::Nanos ts, std::int32_t tid, std::pair<int, std::int64_t> key,
                       std::string name, std::vector<model::Event>& out);

    std::map<std::pair<int, std::int64_t>, std::int32_t>
        groups_;                                                // (0 pid | 1 stream, id) -> group
    std::unordered_map<std::uint64_t, std::int32_t> channels_;  // (group, event index) -> channel
    std::int32_t next_group_ = 1;                               // 0 is the default group
    std::int32_t next_channel_ = 1;                             // 0 is the default channel
    std::int32_t overflow_ = -1;  // the shared channel once kMaxChannels are in use
    struct Open {
        std::int32_t tid = 0;
        std::int32_t core = 0;
        bool open = false;
    };
    std::vector<Open> open_;  // by channel id
};

}  // namespace apcgate::collectors::ctf
