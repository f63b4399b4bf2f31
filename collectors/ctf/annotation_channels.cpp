#include "collectors/ctf/annotation_channels.hpp"

#include "collectors/ctf/field_text.hpp"

namespace apcgate::collectors::ctf {

std::int32_t AnnotationChannels::group(model::Nanos ts, std::int32_t tid,
                                       std::pair<int, std::int64_t> key, std::string name,
                                       std::vector<model::Event>& out) {
    auto it = groups_.find(key);
    if (it != groups_.end()) return it->second;
    if (groups_.size() >= kMaxChannels) return 0;  // the default group: still shown, unnamed
    const std::int32_t g = next_group_++;
    groups_.emplace(key, g);
    out.push_back(model::Annotation{ts, 0, tid, model::GroupName{g, std::move(name)}});
    return g;
}

std::int32_t AnnotationChannels::process_group(model::Nanos ts, std::int32_t tid, std::int64_t pid,
                                               std::string_view procname,
                                               std::vector<model::Event>& out) {
    const auto key = std::make_pair(0, pid);
    if (auto it = groups_.find(key); it != groups_.end()) return it->second;
    std::string name;
    if (!procname.empty()) {
        append_utf8(name, procname, false, 64);
        name += " ";
    }
    name += (name.empty() ? "pid " : "(pid ") + std::to_string(pid) + (name.empty() ? "" : ")");
    return group(ts, tid, key, std::move(name), out);
}

std::int32_t AnnotationChannels::stream_group(model::Nanos ts, std::uint64_t serial,
                                              std::string_view name,
                                              std::vector<model::Event>& out) {
    const auto key = std::make_pair(1, static_cast<std::int64_t>(serial));
    if (auto it = groups_.find(key); it != groups_.end()) return it->second;
    std::string text;
    append_utf8(text, name, false, 200);
    return group(ts, 0, key, std::move(text), out);
}

std::int32_t AnnotationChannels::channel(model::Nanos ts, std::int32_t tid, std::int32_t group,
                                         std::uint32_t event_index, std::string_view event_name,
                                         std::vector<model::Event>& out) {
    const std::uint64_t key =
        (static_cast<std::uint64_t>(static_cast<std::uint32_t>(group)) << 32) | event_index;
    if (auto it = channels_.find(key); it != channels_.end()) return it->second;
    if (channels_.size() >= kMaxChannels) {
        if (overflow_ < 0) {
            overflow_ = next_channel_++;
            out.push_back(
                model::Annotation{ts, 0, tid, model::ChannelName{overflow_, 0, "other events"}});
        }
        return overflow_;
    }
    const std::int32_t c = next_channel_++;
    channels_.emplace(key, c);
    std::string name;
    append_utf8(name, event_name, false, 200);
    out.push_back(model::Annotation{ts, 0, tid, model::ChannelName{c, group, std::move(name)}});
    return c;
}

void AnnotationChannels::opened(std::int32_t channel, std::int32_t tid, std::int32_t core) {
    const auto i = static_cast<std::size_t>(channel);
    if (i >= open_.size()) open_.resize(i + 1);
    open_[i] = Open{tid, core, true};
}

void AnnotationChannels::close_all(model::Nanos ts, std::vector<model::Event>& out) {
    for (std::size_t c = 0; c < open_.size(); ++c) {
        if (!open_[c].open) continue;
        open_[c].open = false;
        out.push_back(model::Annotation{
            ts, open_[c].core, open_[c].tid,
            model::StringAnnotation{static_cast<std::int32_t>(c), std::nullopt, {}}});
    }
}

}  // namespace apcgate::collectors::ctf
