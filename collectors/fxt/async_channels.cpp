#include "collectors/fxt/async_channels.hpp"

namespace apcgate::collectors::fxt {

std::int32_t AsyncChannels::channel(model::Nanos ts, std::int32_t tid, const Key& key,
                                    std::vector<model::Event>& out) {
    auto it = channels_.find(key);
    if (it != channels_.end()) return it->second;
    if (channels_.size() >= kMaxChannels) return 0;
    if (!group_named_) {
        out.push_back(model::Annotation{ts, 0, tid, model::GroupName{kGroup, "async"}});
        group_named_ = true;
    }
    const auto [flow, id, depth] = key;
    std::string name = (flow ? "flow " : "async ") + std::to_string(id);
    if (depth > 0) name += " depth " + std::to_string(depth);
    const std::int32_t c = next_channel_++;
    channels_.emplace(key, c);
    out.push_back(model::Annotation{ts, 0, tid, model::ChannelName{c, kGroup, std::move(name)}});
    return c;
}

void AsyncChannels::annotate(model::Nanos ts, std::int32_t tid, std::int32_t channel,
                             std::string text, std::vector<model::Event>& out) {
    out.push_back(model::Annotation{
        ts, 0, tid, model::StringAnnotation{channel, std::nullopt, std::move(text)}});
}

AsyncChannels::Result AsyncChannels::open(model::Nanos ts, std::int32_t tid, bool flow,
                                          std::uint64_t id, std::string text,
                                          std::vector<model::Event>& out) {
    if (text.empty()) text = "?";  // an empty string would close instead
    int& depth = open_[{flow, id}];
    // A flow has one span: a second begin with the same id restarts it.
    const int at = flow ? 0 : depth;
    const std::int32_t c = channel(ts, tid, {flow, id, at}, out);
    if (c == 0) {
        if (depth == 0) open_.erase({flow, id});
        return Result::TooManyChannels;
    }
    annotate(ts, tid, c, std::move(text), out);
    if (!flow || depth == 0) ++depth;
    return Result::Done;
}

AsyncChannels::Result AsyncChannels::step(model::Nanos ts, std::int32_t tid, std::uint64_t id,
                                          std::string text, std::vector<model::Event>& out) {
    return open(ts, tid, true, id, std::move(text), out);
}

AsyncChannels::Result AsyncChannels::close(model::Nanos ts, std::int32_t tid, bool flow,
                                           std::uint64_t id, std::vector<model::Event>& out) {
    auto it = open_.find({flow, id});
    if (it == open_.end()) return Result::Unmatched;
    const int depth = --it->second;
    if (depth == 0) open_.erase(it);
    auto c = channels_.find({flow, id, flow ? 0 : depth});
    if (c != channels_.end()) annotate(ts, tid, c->second, {}, out);
    return Result::Done;
}

}  // namespace apcgate::collectors::fxt
