// Reads the APC messages without strings (gator-protocol-v6.8.txt, "APC Frame Format"):
//   Counter          ts:p64 core:p32 key:p32 value:p64
//   Block Counter    key:p32 value:p64        (key 0 timestamp, 1 pid, 2 core)
//   Annotate         core:p32 tid:p32 ts:p64 size:p32 bytes[size]
//   Scheduler Trace  1 ts:p64 tid:p32 state:p32  |  2 ts:p64 tid:p32
//   Activity         1 ts:p64 cookie:p32 pid:p32 tid:p32
//                  | 2 ts:p64 core:p32 key:p32 activity:p32 tid:p32 wait:p32
//                  | 3 ts:p64 tid:p32
//   Idle             state:p32 ts:p64 core:p32
//   External         id:p32 bytes-to-end-of-frame  |  -1 id:p32 (disconnect, nothing after)
#include "protocol/apc/decoder_detail.hpp"

namespace apcgate::apc::detail {

void read_counter(wire::ByteReader& r, const DecodedFrame& /*frame*/,
                  std::vector<DecodedMessage>& out) {
    const std::uint64_t at = r.offset();
    r.set_record("Counter message");
    model::CounterSample s;
    s.ts = r.packed64("timestamp");
    s.core = r.packed32("core");
    s.key = r.packed32("key");
    s.value = r.packed64("value");
    out.push_back({at, s});
}

void read_block(wire::ByteReader& r, const DecodedFrame& /*frame*/,
                std::vector<DecodedMessage>& out) {
    const std::uint64_t at = r.offset();
    r.set_record("Block Counter message");
    BlockEntry e;
    e.key = r.packed32("key");
    e.value = r.packed64("value");
    out.push_back({at, e});
}

void read_annotate(wire::ByteReader& r, const DecodedFrame& /*frame*/,
                   std::vector<DecodedMessage>& out) {
    const std::uint64_t at = r.offset();
    r.set_record("Annotate message");
    AnnotateMessage a;
    a.core = r.packed32("core");
    a.tid = r.packed32("tid");
    a.ts = r.packed64("timestamp");
    const std::int32_t size = r.packed32("size");
    if (size < 0) r.fail("negative size " + std::to_string(size), "size");
    const auto bytes = r.bytes(size < 0 ? 0 : static_cast<std::size_t>(size), "body");
    a.bytes.assign(bytes.begin(), bytes.end());
    out.push_back({at, std::move(a)});
}

void read_sched(wire::ByteReader& r, const DecodedFrame& f, std::vector<DecodedMessage>& out) {
    const std::uint64_t at = r.offset();
    const std::size_t start = r.pos();  // unknown codes are reported here
    r.set_record("Scheduler Trace message");
    const std::int32_t code = r.packed32("message code");
    if (code == 1) {
        r.set_record("Sched Switch message");
        model::SchedSwitch s;
        s.core = f.core;
        s.ts = r.packed64("timestamp");
        s.tid = r.packed32("tid");
        s.state = static_cast<model::WaitState>(r.packed32("state"));
        out.push_back({at, s});
    } else if (code == 2) {
        r.set_record("Sched Thread Exit message");
        model::SchedThreadExit s;
        s.core = f.core;
        s.ts = r.packed64("timestamp");
        s.tid = r.packed32("tid");
        out.push_back({at, s});
    } else {
        r.seek(start);
        r.fail("unknown Scheduler Trace message code " + std::to_string(code), "message code");
    }
}

void read_activity(wire::ByteReader& r, const DecodedFrame& /*frame*/,
                   std::vector<DecodedMessage>& out) {
    const std::uint64_t at = r.offset();
    const std::size_t start = r.pos();  // unknown codes are reported here
    r.set_record("Activity message");
    const std::int32_t code = r.packed32("message code");
    if (code == 1) {
        r.set_record("Link message");
        model::ActivityLink l;
        l.ts = r.packed64("timestamp");
        l.cookie = r.packed32("cookie");
        l.pid = r.packed32("pid");
        l.tid = r.packed32("tid");
        out.push_back({at, l});
    } else if (code == 2) {
        r.set_record("Activity Switch message");
        model::ActivitySwitch s;
        s.ts = r.packed64("timestamp");
        s.core = r.packed32("core");
        s.key = r.packed32("key");
        s.activity = r.packed32("activity");
        s.tid = r.packed32("tid");
        s.wait = static_cast<model::WaitState>(r.packed32("wait state"));
        out.push_back({at, s});
    } else if (code == 3) {
        r.set_record("Task Exit message");
        model::TaskExit t;
        t.ts = r.packed64("timestamp");
        t.tid = r.packed32("tid");
        out.push_back({at, t});
    } else {
        r.seek(start);
        r.fail("unknown Activity message code " + std::to_string(code), "message code");
    }
}

void read_idle(wire::ByteReader& r, const DecodedFrame& /*frame*/,
               std::vector<DecodedMessage>& out) {
    const std::uint64_t at = r.offset();
    r.set_record("Idle message");
    model::Idle i;
    i.state = r.packed32("state");
    i.ts = r.packed64("timestamp");
    i.core = r.packed32("core");
    out.push_back({at, i});
}

void read_external(wire::ByteReader& r, const DecodedFrame& /*frame*/,
                   std::vector<DecodedMessage>& out) {
    const std::uint64_t at = r.offset();
    r.set_record("External frame");
    const std::int32_t id = r.packed32("id");
    if (!r.ok()) return;
    if (id == -1) {
        r.set_record("External disconnect frame");
        DisconnectMessage d;
        d.id = r.packed32("id");
        d.trailing_bytes = r.remaining();
        r.skip(r.remaining(), "trailing bytes");
        if (r.ok() && d.id < 0) r.fail("negative id " + std::to_string(d.id), "id");
        out.push_back({at, d});
        return;
    }
    if (id < 0) {
        r.fail("negative id " + std::to_string(id), "id");
        return;
    }
    model::ExternalData x;
    x.id = id;
    const auto bytes = r.bytes(r.remaining(), "data");
    x.bytes.assign(bytes.begin(), bytes.end());
    out.push_back({at, std::move(x)});
}

MessageReader reader_for(std::int32_t code) {
    switch (static_cast<FrameType>(code)) {
        case FrameType::Summary:
            return read_summary;
        case FrameType::Backtrace:
            return read_backtrace;
        case FrameType::Name:
            return read_name;
        case FrameType::Counter:
            return read_counter;
        case FrameType::BlockCounter:
            return read_block;
        case FrameType::Annotate:
            return read_annotate;
        case FrameType::SchedTrace:
            return read_sched;
        case FrameType::Idle:
            return read_idle;
        case FrameType::External:
            return read_external;
        case FrameType::Proc:
            return read_proc;
        case FrameType::Activity:
            return read_activity;
    }
    return nullptr;
}

}  // namespace apcgate::apc::detail
