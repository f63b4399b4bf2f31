#include "protocol/perf_framing/frame_format.hpp"

#include <linux/perf_event.h>

#include "protocol/apc/dump_line.hpp"
#include "protocol/wire/overloaded.hpp"

namespace apcgate::perf_framing {

namespace {

using apc::DumpLine;

// The "name: X" line of a tracepoint format text.
std::string_view format_name(std::string_view text) {
    const auto pos = text.find("name: ");
    if (pos == std::string_view::npos) return {};
    const auto start = pos + 6;
    const auto end = text.find('\n', start);
    return text.substr(start, end == std::string_view::npos ? end : end - start);
}

void attrs_message(const AttrsMessage& m, std::string& out) {
    DumpLine l(m.offset);
    l.word(" ").word(to_string(m.code).c_str());
    std::visit(
        wire::Overloaded{
            [&](const PeaMessage& p) {
                l.hex("key", p.key)
                    .num("type", p.attr.type)
                    .num("config", static_cast<std::int64_t>(p.attr.config));
                l.num("period", static_cast<std::int64_t>(p.attr.sample_period));
                l.hex("sample_type", static_cast<std::int64_t>(p.attr.sample_type));
                l.hex("read_format", static_cast<std::int64_t>(p.attr.read_format));
                l.hex("flags", static_cast<std::int64_t>(p.attr.flags));
            },
            [&](const KeysMessage& k) {
                l.num("n", static_cast<std::int64_t>(k.ids.size()));
                for (const auto& [id, key] : k.ids) {
                    char buf[48];
                    std::snprintf(buf, sizeof buf, "%llu=0x%x", static_cast<unsigned long long>(id),
                                  static_cast<unsigned>(key));
                    l.word(buf);
                }
            },
            [&](const TextMessage& t) {
                if (m.code == AttrsCode::Format) l.str("name", format_name(t.text));
                l.num("bytes", static_cast<std::int64_t>(t.text.size()));
            },
            [&](const MapsMessage& x) {
                l.num("pid", x.pid)
                    .num("tid", x.tid)
                    .num("bytes", static_cast<std::int64_t>(x.maps.size()));
            },
            [&](const CommMessage& c) {
                l.num("pid", c.pid).num("tid", c.tid).str("image", c.image).str("comm", c.comm);
            },
            [&](const CpuMessage& c) { l.num("time", c.time).num("cpu", c.cpu); },
            [&](const CountersMessage& c) {
                l.num("time", c.time).num("values", static_cast<std::int64_t>(c.values.size()));
            },
            [&](const BuildIdMessage& b) {
                if (m.code == AttrsCode::KernelModuleBuildId) l.str("module", b.module);
                l.bytes("id", b.id);
            },
            [&](const OpaqueMessage&) {},
        },
        m.body);
    out += l.take();
    out += '\n';
}

}  // namespace

void format_frame(const DecodedPerfFrame& frame, std::size_t size, std::string& out) {
    DumpLine l(frame.offset);
    l.word("frame")
        .word(to_string(frame.type).c_str())
        .num("size", static_cast<std::int64_t>(size));
    const PerfAttrsFrame* attrs = nullptr;
    std::visit(
        wire::Overloaded{
            [&](const SummaryFrame& s) {
                l.num("realtime", s.realtime_ns).num("boottime", s.boottime_ns);
                l.num("monotonic_raw", s.monotonic_raw_ns).num("monotonic", s.monotonic_ns);
                l.word(s.canary == kSummaryCanary ? "canary=ok" : "canary=BAD");
                for (const auto& [k, v] : s.attributes) l.str(k.c_str(), v);
            },
            [&](const CoreNameFrame& c) {
                l.word("CoreName").num("core", c.core).hex("cpuid", c.cpuid).str("name", c.name);
            },
            [&](const BlockCounterFrame& b) {
                l.num("core", b.core).num("entries", static_cast<std::int64_t>(b.entries.size()));
                if (!b.entries.empty() && b.entries.front().first == 0)
                    l.num("time", b.entries.front().second);
            },
            [&](const ExternalFrame& e) {
                if (e.disconnect) {
                    l.word("disconnect").num("id", e.id);
                } else {
                    l.num("id", e.id).bytes("bytes", e.data);
                }
            },
            [&](const PerfAttrsFrame& a) {
                attrs = &a;
                l.num("messages", static_cast<std::int64_t>(a.messages.size()));
            },
            [&](const PerfDataFrame& d) {
                l.num("cpu", d.cpu).num("packed", d.packed_bytes);
                l.num("raw", static_cast<std::int64_t>(d.raw.size()));
            },
            [&](const PerfAuxFrame& a) {
                l.num("cpu", a.cpu)
                    .num("tail", a.tail)
                    .num("bytes", static_cast<std::int64_t>(a.data.size()));
            },
            [&](const PerfSyncFrame& s) {
                l.num("pid", s.pid).num("tid", s.tid).num("freq", s.freq);
                l.num("monotonic_raw", s.monotonic_raw).num("counter", s.counter);
            },
        },
        frame.body);
    out += l.take();
    out += '\n';
    if (attrs != nullptr)
        for (const AttrsMessage& m : attrs->messages) attrs_message(m, out);
}

void format_record(const RecordView& r, std::string& out) {
    const PerfRecord& rec = *r.record;
    DumpLine l(r.offset);
    l.word(" ").word(record_type_name(rec.header.type).c_str()).num("cpu", r.cpu);
    if (rec.time) l.num("time", static_cast<std::int64_t>(*rec.time));
    l.hex("key", r.key);
    if (rec.pid) l.num("pid", *rec.pid);
    if (rec.tid) l.num("tid", *rec.tid);
    switch (rec.header.type) {
        case PERF_RECORD_SAMPLE:
            if (rec.ip) l.hex("ip", static_cast<std::int64_t>(*rec.ip));
            if (rec.callchain_depth > 0)
                l.num("callchain", static_cast<std::int64_t>(rec.callchain_depth));
            if (!rec.reads.empty()) l.num("reads", static_cast<std::int64_t>(rec.reads.size()));
            if (!rec.raw.empty()) l.num("raw", static_cast<std::int64_t>(rec.raw.size()));
            break;
        case PERF_RECORD_COMM:
            l.num("task_pid", rec.body_pid).num("task_tid", rec.body_tid).str("comm", rec.text);
            if ((rec.header.misc & PERF_RECORD_MISC_COMM_EXEC) != 0) l.word("exec");
            break;
        case PERF_RECORD_FORK:
        case PERF_RECORD_EXIT:
            l.num("task_pid", rec.body_pid).num("task_tid", rec.body_tid);
            l.num("ppid", rec.parent_pid).num("ptid", rec.parent_tid);
            break;
        case PERF_RECORD_MMAP:
        case PERF_RECORD_MMAP2:
            l.num("task_pid", rec.body_pid).str("file", rec.text);
            break;
        case PERF_RECORD_LOST:
        case PERF_RECORD_LOST_SAMPLES:
            l.num("lost", static_cast<std::int64_t>(rec.lost));
            break;
        case PERF_RECORD_SWITCH:
        case PERF_RECORD_SWITCH_CPU_WIDE:
            l.word((rec.header.misc & PERF_RECORD_MISC_SWITCH_OUT) != 0 ? "out" : "in");
            break;
        default:
            break;
    }
    out += l.take();
    out += '\n';
}

}  // namespace apcgate::perf_framing
