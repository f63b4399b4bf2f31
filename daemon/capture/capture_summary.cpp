#include "daemon/capture/capture_summary.hpp"

#include "daemon/capture/capture_files.hpp"
#include "protocol/apc/message_format.hpp"
#include "protocol/wire/overloaded.hpp"

namespace apcgate::daemon {

namespace {

using wire::Overloaded;

// Tallies one pass over the decoded frames.
class Tally {
  public:
    explicit Tally(CaptureSummary& s) : s_(s) {
        for (std::size_t i = 0; i < s_.counters.size(); ++i) by_key_[s_.counters[i].key] = i;
    }

    void frame(const apc::DecodedFrame& f) {
        ++s_.frames;
        ++s_.frames_by_type[apc::to_string(f.type)];
        for (const auto& m : f.messages) message(f, m);
    }

  private:
    void ts(std::int64_t t) {
        if (!s_.first_ts || t < *s_.first_ts) s_.first_ts = t;
        if (!s_.last_ts || t > *s_.last_ts) s_.last_ts = t;
    }
    void value(std::int32_t key, std::int64_t v, const char* frame) {
        auto it = by_key_.find(key);
        if (it == by_key_.end()) return;  // unknown keys are the rule checker's to report
        CounterSummary& c = s_.counters[it->second];
        if (c.values == 0) c.min = c.max = v;
        c.min = std::min(c.min, v);
        c.max = std::max(c.max, v);
        c.last = v;
        c.frame = frame;
        ++c.values;
    }
    void count(const char* kind) { ++s_.messages_by_kind[kind]; }

    void message(const apc::DecodedFrame& f, const apc::DecodedMessage& m) {
        std::visit(
            Overloaded{
                [&](const apc::SummaryMessage& v) { count("Summary"), s_.summary = v; },
                [&](const model::CoreName& v) { count("CoreName"), s_.cores[v.core] = v.name; },
                [&](const model::CookieName&) { count("CookieName"); },
                [&](const model::ThreadName& v) {
                    count("ThreadName"), s_.threads[v.tid] = v.name, ts(v.ts);
                },
                [&](const model::ProcComm& v) {
                    count("ProcComm");
                    s_.threads.emplace(v.tid, v.comm);
                },
                [&](const apc::BacktraceMessage& v) { count("Backtrace"), ts(v.backtrace.ts); },
                [&](const model::CounterSample& v) {
                    count("Counter"), ts(v.ts), value(v.key, v.value, "Counter");
                },
                [&](const apc::BlockEntry& v) {
                    count("BlockCounter");
                    if (v.key == 0) ts(v.value);
                    if (v.key > 2) value(v.key, v.value, "Block Counter");
                },
                [&](const apc::AnnotateMessage& v) { count("Annotate"), ts(v.ts); },
                [&](const model::SchedSwitch& v) { count("SchedSwitch"), ts(v.ts); },
                [&](const model::SchedThreadExit& v) { count("SchedThreadExit"), ts(v.ts); },
                [&](const model::ActivityLink& v) { count("ActivityLink"), ts(v.ts); },
                [&](const model::ActivitySwitch& v) { count("ActivitySwitch"), ts(v.ts); },
                [&](const model::TaskExit& v) { count("TaskExit"), ts(v.ts); },
                [&](const model::Idle& v) { count("Idle"), ts(v.ts); },
                [&](const model::ExternalData&) { count("External"); },
                [&](const apc::DisconnectMessage&) { count("ExternalDisconnect"); },
            },
            m.body);
        (void)f;
    }

    CaptureSummary& s_;
    std::map<std::int32_t, std::size_t> by_key_;
};

// Events XML "display": "Only 'accumulate' and 'hertz' are valid for delta and incident
// counters. Only 'maximum', 'minimum', and 'average' are valid for absolute counters. Only
// 'average' is valid for activity counters."
bool display_fits_class(const std::string& cls, const std::string& display) {
    if (display.empty()) return true;  // the class's default
    if (cls == "delta" || cls == "incident") return display == "accumulate" || display == "hertz";
    if (cls == "absolute")
        return display == "maximum" || display == "minimum" || display == "average";
    if (cls == "activity") return display == "average";
    return true;  // an unknown class has no rule to break here
}

void describe_counters(CaptureSummary& s, const std::optional<std::string>& events_xml) {
    std::vector<xml::EventInfo> events;
    if (events_xml) {
        if (auto parsed = xml::parse_events(*events_xml)) {
            events = std::move(parsed).value();
        } else {
            s.violations.push_back({0, "events.xml: " + parsed.error().to_string()});
        }
    }
    for (const auto& e : events) {
        if (!display_fits_class(e.cls, e.display))
            s.violations.push_back({0, "events.xml: counter " + e.counter + " of class " + e.cls +
                                           " has display '" + e.display +
                                           "', which the spec does not allow for its class"});
    }
    for (const auto& c : s.captured.counters) {
        CounterSummary cs;
        cs.key = c.key;
        cs.type = c.type;
        for (const auto& e : events) {
            if (e.counter != c.type) continue;
            cs.title = e.category + ": " + e.title + (e.name.empty() ? "" : " " + e.name);
            break;
        }
        s.counters.push_back(std::move(cs));
    }
}

}  // namespace

Result<CaptureSummary> summarize_capture(const std::filesystem::path& dir,
                                         const std::function<void(const std::string&)>& dump) {
    CaptureSummary s;
    s.path = dir;
    auto files = open_capture_files(dir);
    if (!files) return std::move(files).take_error();
    s.captured = std::move(files->captured);
    describe_counters(s, read_document(dir / "events.xml"));
    const auto& data_path = files->data_path;
    const auto bytes = files->data.bytes();
    s.data_bytes = bytes.size();

    std::vector<model::CounterKey> keys;
    for (const auto& c : s.captured.counters) keys.push_back(c.key);
    apc::FrameRuleChecker rules(keys, s.captured.info.target.cores);
    Tally tally(s);
    apc::CaptureSplitter splitter(bytes);
    std::string line;
    while (auto raw = splitter.next()) {
        auto frame = apc::decode_frame(raw->body, raw->body_offset);
        if (!frame) {
            s.error = std::move(frame).take_error().in_input(data_path.string());
            break;
        }
        if (dump) {
            line.clear();
            apc::format_frame(*frame, line);
            dump(line);
        }
        rules.check(*frame);
        tally.frame(*frame);
    }
    if (!s.error) {
        s.end = splitter.end();
        if (splitter.error()) s.error = Error(*splitter.error()).in_input(data_path.string());
    }
    auto data_violations = rules.finish();
    s.violations.insert(s.violations.begin(), data_violations.begin(), data_violations.end());
    // "This directory contains captured.xml ..., session.xml ..., events.xml ... and
    // 0000000000" (Local Capture); the first and the last were read above.
    for (const char* name : {"session.xml", "events.xml"}) {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(dir / name, ec))
            s.violations.push_back({0, std::string(name) +
                                           " is missing: a capture directory holds captured.xml, "
                                           "session.xml, events.xml and 0000000000"});
    }
    return s;
}

}  // namespace apcgate::daemon
