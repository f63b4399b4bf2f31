// Reads one APC frame body (gator-protocol-v6.8.txt, "APC Frame Format"):
//   Frame Header   code:packed32 [core:packed32 for Backtrace/Name/BlockCounter/SchedTrace/Proc]
//   Summary        1 canary:string wallclock:p64 uptime:p64 delta:p64 {key:string value:string}
//                    "":string  |  3 core:p32 cpuid:p32 name:string
//   Name           1 cookie:p32 name:string  |  2 ts:p64 tid:p32 name:string
//   Proc (Comm)    pid:p32 tid:p32 image:string comm:string
//   Backtrace      ts:p64 exec_cookie:p32 pid:p32 tid:p32 {cookie:p32 offset:p64} 1
// The other messages are read in decode_messages.cpp.
#include "protocol/apc/decoder.hpp"

#include "protocol/apc/decoder_detail.hpp"

namespace apcgate::apc {

namespace detail {

void read_summary(wire::ByteReader& r, const DecodedFrame& /*frame*/,
                  std::vector<DecodedMessage>& out) {
    const std::uint64_t at = r.offset();
    const std::size_t start = r.pos();  // unknown codes are reported here
    r.set_record("Summary frame message");
    const std::int32_t code = r.packed32("message code");
    if (code == 1) {
        r.set_record("Summary message");
        SummaryMessage s;
        s.canary = r.packed_string("newline canary");
        s.wallclock_ns = r.packed64("timestamp");
        s.uptime_ns = r.packed64("uptime");
        s.monotonic_delta_ns = r.packed64("monotonic delta");
        while (r.ok()) {
            std::string key(r.packed_string("attribute key"));
            if (key.empty()) break;  // End of Attributes
            s.attributes.emplace_back(std::move(key), r.packed_string("attribute value"));
        }
        out.push_back({at, std::move(s)});
    } else if (code == 3) {
        r.set_record("CPU Core Name message");
        model::CoreName c;
        c.core = r.packed32("core");
        c.cpuid = r.packed32("cpuid");
        c.name = r.packed_string("name");
        out.push_back({at, std::move(c)});
    } else {
        r.seek(start);
        r.fail("unknown Summary message code " + std::to_string(code), "message code");
    }
}

void read_name(wire::ByteReader& r, const DecodedFrame& f, std::vector<DecodedMessage>& out) {
    const std::uint64_t at = r.offset();
    const std::size_t start = r.pos();  // unknown codes are reported here
    r.set_record("Name frame message");
    const std::int32_t code = r.packed32("message code");
    if (code == 1) {
        r.set_record("Cookie Name message");
        model::CookieName c;
        c.core = f.core;
        c.cookie = r.packed32("cookie");
        c.name = r.packed_string("name");
        out.push_back({at, std::move(c)});
    } else if (code == 2) {
        r.set_record("Thread Name message");
        model::ThreadName t;
        t.core = f.core;
        t.ts = r.packed64("timestamp");
        t.tid = r.packed32("tid");
        t.name = r.packed_string("name");
        out.push_back({at, std::move(t)});
    } else {
        r.seek(start);
        r.fail("unknown Name message code " + std::to_string(code), "message code");
    }
}

void read_proc(wire::ByteReader& r, const DecodedFrame& f, std::vector<DecodedMessage>& out) {
    const std::uint64_t at = r.offset();
    r.set_record("Comm message");
    model::ProcComm p;
    p.core = f.core;
    p.pid = r.packed32("pid");
    p.tid = r.packed32("tid");
    p.image = r.packed_string("image");
    p.comm = r.packed_string("comm");
    out.push_back({at, std::move(p)});
}

void read_backtrace(wire::ByteReader& r, const DecodedFrame& f, std::vector<DecodedMessage>& out) {
    const std::uint64_t at = r.offset();
    r.set_record("Backtrace message");
    BacktraceMessage m;
    model::Backtrace& b = m.backtrace;
    b.core = f.core;
    b.ts = r.packed64("timestamp");
    b.exec_cookie = r.packed32("exec cookie");
    b.pid = r.packed32("pid");
    b.tid = r.packed32("tid");
    m.end_of_message = false;
    while (r.ok() && !r.at_end()) {
        const std::int32_t cookie = r.packed32("offset cookie");
        if (cookie == 1) {  // End of Message
            m.end_of_message = true;
            break;
        }
        b.frames.push_back({cookie, r.packed64("offset")});
    }
    out.push_back({at, std::move(m)});
}

}  // namespace detail

Result<DecodedFrame> decode_frame(std::span<const std::uint8_t> body, std::uint64_t file_offset) {
    wire::ByteReader r(body, wire::Endian::Little, file_offset);
    r.set_record("frame header");
    r.set_whole_record();  // a frame, cut out by its length
    DecodedFrame f;
    f.offset = file_offset;
    f.size = body.size();
    const std::int32_t code = r.packed32("frame code");
    const detail::MessageReader read = detail::reader_for(code);
    if (r.ok() && read == nullptr) {
        r.seek(0);
        r.fail("unknown frame code " + std::to_string(code), "frame code");
    }
    if (!r.ok()) return r.take_error();
    f.type = static_cast<FrameType>(code);
    if (frame_has_core(f.type)) f.core = r.packed32("core");
    if (f.type == FrameType::External) {
        detail::read_external(r, f, f.messages);
    } else {
        while (r.ok() && !r.at_end()) read(r, f, f.messages);
    }
    if (!r.ok()) {
        return r.take_error().while_("decoding the " + std::string(to_string(f.type)) +
                                     " frame at offset " + std::to_string(file_offset));
    }
    return f;
}

}  // namespace apcgate::apc
