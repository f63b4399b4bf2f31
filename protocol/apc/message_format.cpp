// Text lines for decoded frames and messages (see message_format.hpp).
#include "protocol/apc/message_format.hpp"

#include <cstdio>

#include "protocol/apc/dump_line.hpp"

namespace apcgate::apc {

namespace {

struct Formatter {
    DumpLine& l;

    void operator()(const SummaryMessage& m) const {
        l.word("Summary").num("wallclock", m.wallclock_ns).num("uptime", m.uptime_ns);
        l.num("monotonic_delta", m.monotonic_delta_ns);
        l.word(m.canary == kNewlineCanary ? "canary=ok" : "canary=BAD");
        for (const auto& [k, v] : m.attributes) l.str(k.c_str(), v);
    }
    void operator()(const model::CoreName& m) const {
        l.word("CoreName").num("core", m.core).hex("cpuid", m.cpuid).str("name", m.name);
    }
    void operator()(const model::CookieName& m) const {
        l.word("CookieName").num("core", m.core).num("cookie", m.cookie).str("name", m.name);
    }
    void operator()(const model::ThreadName& m) const {
        l.word("ThreadName").num("ts", m.ts).num("core", m.core).num("tid", m.tid);
        l.str("name", m.name);
    }
    void operator()(const model::ProcComm& m) const {
        l.word("Comm").num("core", m.core).num("pid", m.pid).num("tid", m.tid);
        l.str("image", m.image).str("comm", m.comm);
    }
    void operator()(const BacktraceMessage& m) const {
        const auto& b = m.backtrace;
        l.word("Backtrace").num("ts", b.ts).num("core", b.core).num("exec_cookie", b.exec_cookie);
        l.num("pid", b.pid)
            .num("tid", b.tid)
            .num("depth", static_cast<std::int64_t>(b.frames.size()));
        for (const auto& f : b.frames) l.num("cookie", f.cookie).hex("offset", f.offset);
        if (!m.end_of_message) l.word("NO-END-OF-MESSAGE");
    }
    void operator()(const model::CounterSample& m) const {
        l.word("Counter").num("ts", m.ts).num("core", m.core).num("key", m.key);
        l.num("value", m.value);
    }
    void operator()(const BlockEntry& m) const {
        l.word("BlockCounter");
        switch (m.key) {
            case 0:
                l.num("timestamp", m.value);
                break;
            case 1:
                l.num("pid", m.value);
                break;
            case 2:
                l.num("core", m.value);
                break;
            default:
                l.num("key", m.key).num("value", m.value);
        }
    }
    void operator()(const AnnotateMessage& m) const {
        l.word("Annotate").num("ts", m.ts).num("core", m.core).num("tid", m.tid);
        l.bytes("bytes", m.bytes);
    }
    void operator()(const model::SchedSwitch& m) const {
        l.word("SchedSwitch").num("ts", m.ts).num("core", m.core).num("tid", m.tid);
        l.num("state", static_cast<std::int64_t>(m.state));
    }
    void operator()(const model::SchedThreadExit& m) const {
        l.word("SchedThreadExit").num("ts", m.ts).num("core", m.core).num("tid", m.tid);
    }
    void operator()(const model::ActivityLink& m) const {
        l.word("Link").num("ts", m.ts).num("cookie", m.cookie).num("pid", m.pid);
        l.num("tid", m.tid);
    }
    void operator()(const model::ActivitySwitch& m) const {
        l.word("ActivitySwitch").num("ts", m.ts).num("core", m.core).num("key", m.key);
        l.num("activity", m.activity)
            .num("tid", m.tid)
            .num("wait", static_cast<std::int64_t>(m.wait));
    }
    void operator()(const model::TaskExit& m) const {
        l.word("TaskExit").num("ts", m.ts).num("tid", m.tid);
    }
    void operator()(const model::Idle& m) const {
        l.word("Idle").num("ts", m.ts).num("core", m.core).num("state", m.state);
    }
    void operator()(const model::ExternalData& m) const {
        l.word("External").num("id", m.id).bytes("bytes", m.bytes);
    }
    void operator()(const DisconnectMessage& m) const {
        l.word("ExternalDisconnect").num("id", m.id);
        if (m.trailing_bytes != 0)
            l.num("trailing_bytes", static_cast<std::int64_t>(m.trailing_bytes));
    }
};

}  // namespace

std::string format_frame_header(const DecodedFrame& frame) {
    DumpLine l(frame.offset);
    l.word("frame").word(to_string(frame.type));
    if (frame_has_core(frame.type)) l.num("core", frame.core);
    l.num("size", static_cast<std::int64_t>(frame.size));
    l.num("messages", static_cast<std::int64_t>(frame.messages.size()));
    return l.take();
}

std::string format_message(const DecodedMessage& message) {
    DumpLine l(message.offset);
    std::visit(Formatter{l}, message.body);
    return l.take();
}

void format_frame(const DecodedFrame& frame, std::string& out) {
    out += format_frame_header(frame);
    out += '\n';
    for (const auto& m : frame.messages) {
        out += format_message(m);
        out += '\n';
    }
}

}  // namespace apcgate::apc
