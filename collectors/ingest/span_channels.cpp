#include "collectors/ingest/span_channels.hpp"

namespace apcgate::collectors::ingest {

void SpanChannels::name_thread(model::Nanos ts, std::int32_t tid, std::string name,
                               std::vector<model::Event>& out) {
    auto it = groups_.find(tid);
    names_[tid] = name;
    if (it != groups_.end())
        out.push_back(model::Annotation{ts, 0, tid, model::GroupName{it->second, std::move(name)}});
}

std::int32_t SpanChannels::group_of(model::Nanos ts, std::int32_t tid,
                                    std::vector<model::Event>& out) {
    auto it = groups_.find(tid);
    if (it != groups_.end()) return it->second;
    const std::int32_t g = next_group_++;
    groups_.emplace(tid, g);
    auto n = names_.find(tid);
    std::string name = n != names_.end() ? n->second : "thread " + std::to_string(tid);
    out.push_back(model::Annotation{ts, 0, tid, model::GroupName{g, std::move(name)}});
    return g;
}

std::int32_t SpanChannels::channel(model::Nanos ts, std::int32_t tid, int depth,
                                   std::vector<model::Event>& out) {
    const auto key = std::make_pair(tid, depth);
    auto it = channels_.find(key);
    if (it != channels_.end()) return it->second;
    const std::int32_t group = group_of(ts, tid, out);
    const std::int32_t c = next_channel_++;
    channels_.emplace(key, c);
    out.push_back(model::Annotation{
        ts, 0, tid,
        model::ChannelName{c, group, depth < 0 ? "events" : "depth " + std::to_string(depth)}});
    return c;
}

void SpanChannels::open(model::Nanos ts, std::int32_t core, std::int32_t tid, int depth,
                        std::string text, std::vector<model::Event>& out) {
    if (text.empty()) text = "?";  // an empty string would close the span instead
    const std::int32_t c = channel(ts, tid, depth, out);
    out.push_back(model::Annotation{ts, core, tid,
                                    model::StringAnnotation{c, std::nullopt, std::move(text)}});
}

void SpanChannels::close(model::Nanos ts, std::int32_t core, std::int32_t tid, int depth,
                         std::vector<model::Event>& out) {
    const std::int32_t c = channel(ts, tid, depth, out);
    out.push_back(model::Annotation{ts, core, tid, model::StringAnnotation{c, std::nullopt, {}}});
}

void SpanChannels::note(model::Nanos ts, std::int32_t core, std::int32_t tid, std::string text,
                        std::vector<model::Event>& out) {
    const std::int32_t c = channel(ts, tid, -1, out);
    // A note is a zero-length span: open and close at the same time on the "events" channel.
    out.push_back(model::Annotation{ts, core, tid,
                                    model::StringAnnotation{c, std::nullopt, std::move(text)}});
    out.push_back(model::Annotation{ts, core, tid, model::StringAnnotation{c, std::nullopt, {}}});
}

}  // namespace apcgate::collectors::ingest
