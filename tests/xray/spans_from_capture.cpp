#include "spans_from_capture.hpp"

#include "protocol/apc/capture_stream.hpp"
#include "xray_test_support.hpp"

namespace apcgate::xray_test {

CaptureContent rebuild(const std::vector<apc::DecodedFrame>& frames) {
    CaptureContent c;
    auto events = apc::rebuild_events(frames);
    if (!events) {
        c.error = events.error().to_string();
        return c;
    }
    c.events = std::move(*events);
    return c;
}

CaptureContent read_capture(const std::string& dir) {
    const auto bytes = read_bytes(std::filesystem::path(dir) / "0000000000");
    const auto decoded = apc::decode_capture(bytes);
    if (decoded.error) return {{}, decoded.error->to_string()};
    return rebuild(decoded.frames);
}

Spans spans_of(const std::vector<model::Event>& events) {
    std::map<std::pair<std::int32_t, std::int32_t>, std::string> channel_names;  // (tid, channel)
    Spans spans;
    for (const auto& ev : events) {
        const auto* a = std::get_if<model::Annotation>(&ev);
        if (a == nullptr) continue;
        if (const auto* c = std::get_if<model::ChannelName>(&a->body))
            channel_names[{a->tid, c->channel}] = c->name;
        if (const auto* t = std::get_if<model::StringAnnotation>(&a->body)) {
            const std::string& where = channel_names[{a->tid, t->channel}];
            spans[a->tid].push_back(t->text.empty() ? "close " + where
                                                    : "open " + where + " " + t->text);
        }
    }
    return spans;
}

bool expected_spans(const PerThread& llvm, bool symbolized, Spans& out) {
    for (const auto& [key, recs] : llvm) {
        auto& s = out[static_cast<std::int32_t>(key.second)];
        std::vector<std::uint32_t> stack;
        for (const auto& r : recs) {
            if (r.kind == "custom-event" || r.kind == "typed-event") {
                s.push_back("open events " +
                            (r.kind == "custom-event" ? std::string("custom")
                                                      : "typed " + std::to_string(r.function)) +
                            ": " + r.data);
                s.push_back("close events");
            } else if (r.kind.rfind("function-enter", 0) == 0) {
                std::string text = symbolized ? r.name : "fn#" + std::to_string(r.function);
                for (std::size_t i = 0; i < r.args.size(); ++i)
                    text += (i == 0 ? " [" : ", ") + std::to_string(r.args[i]) +
                            (i + 1 == r.args.size() ? "]" : "");
                s.push_back("open depth " + std::to_string(stack.size()) + " " + text);
                stack.push_back(r.function);
            } else {
                if (stack.empty() || stack.back() != r.function) return false;
                stack.pop_back();
                s.push_back("close depth " + std::to_string(stack.size()));
            }
        }
        // Calls still open when the thread's data ends close there.
        while (!stack.empty()) {
            stack.pop_back();
            s.push_back("close depth " + std::to_string(stack.size()));
        }
    }
    return true;
}

}  // namespace apcgate::xray_test
