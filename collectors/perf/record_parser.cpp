#include "collectors/perf/record_parser.hpp"

#include <algorithm>

#include "protocol/wire/byte_reader.hpp"
#include "protocol/wire/fixed_load.hpp"

namespace apcgate::collectors::perf {
namespace {

using wire::ByteReader;

std::size_t trailer_bytes(std::uint64_t st) {
    std::size_t n = 0;
    for (std::uint64_t bit :
         {kSampleTid, kSampleTime, kSampleId, kSampleStreamId, kSampleCpu, kSampleIdentifier})
        if ((st & bit) != 0) n += 8;
    return n;
}

void read_trailer(ByteReader& r, std::uint64_t st, SampleId& sid) {
    if ((st & kSampleTid) != 0) {
        sid.pid = r.i32("sample_id.pid");
        sid.tid = r.i32("sample_id.tid");
    }
    if ((st & kSampleTime) != 0) sid.time = r.u64("sample_id.time");
    if ((st & kSampleId) != 0) r.skip(8, "sample_id.id");
    if ((st & kSampleStreamId) != 0) r.skip(8, "sample_id.stream_id");
    if ((st & kSampleCpu) != 0) {
        sid.cpu = r.i32("sample_id.cpu");
        r.skip(4, "sample_id.res");
    }
    if ((st & kSampleIdentifier) != 0) sid.id = r.u64("sample_id.identifier");
}

// A NUL-terminated string in the rest of the reader's bytes (the padding after it is skipped).
std::string c_string(ByteReader& r, std::string_view field) {
    const auto rest = r.rest();
    const auto nul = std::find(rest.begin(), rest.end(), std::uint8_t{0});
    if (nul == rest.end()) {
        r.fail("string without its NUL terminator", field);
        return {};
    }
    std::string s(rest.begin(), nul);
    r.skip(rest.size(), field);
    return s;
}

Result<PerfRecord> parse_sample(const RawRecord& rec, const LayoutTable& layouts,
                                std::string_view input) {
    ByteReader r(rec.body, wire::Endian::Little, rec.offset + kHeaderBytes, std::string(input));
    r.set_record("SAMPLE");
    r.set_whole_record();  // cut out by its header's size
    SampleRecord s;
    s.misc = rec.misc;
    s.sid.id = r.u64("identifier");
    if (!r.ok()) return r.take_error();
    const std::uint64_t* st_ptr = layouts.find(s.sid.id);
    if (st_ptr == nullptr) {
        r.fail("unknown event id " + std::to_string(s.sid.id), "identifier");
        return r.take_error();
    }
    const std::uint64_t st = *st_ptr;
    if ((st & kSampleIp) != 0) s.ip = r.u64("ip");
    if ((st & kSampleTid) != 0) {
        s.sid.pid = r.i32("pid");
        s.sid.tid = r.i32("tid");
    }
    if ((st & kSampleTime) != 0) s.sid.time = r.u64("time");
    if ((st & kSampleAddr) != 0) r.skip(8, "addr");
    if ((st & kSampleId) != 0) r.skip(8, "id");
    if ((st & kSampleStreamId) != 0) r.skip(8, "stream_id");
    if ((st & kSampleCpu) != 0) {
        s.sid.cpu = r.i32("cpu");
        r.skip(4, "res");
    }
    if ((st & kSamplePeriod) != 0) s.period = r.u64("period");
    if ((st & kSampleCallchain) != 0) {
        const std::uint64_t nr = r.u64("callchain.nr");
        if (r.ok() && (nr > kMaxCallchain || nr > r.remaining() / 8))
            r.fail("callchain of " + std::to_string(nr) + " entries does not fit", "callchain.nr");
        if (r.ok()) {
            // Checked as a whole above; read as one span (a deep stack is most of a sample).
            const auto ips = r.bytes(nr * 8, "callchain.ip");
            s.callchain.resize(nr);
            for (std::uint64_t i = 0; i < nr; ++i)
                s.callchain[i] = wire::load_u64(ips.data() + i * 8, wire::Endian::Little);
        }
    }
    if ((st & kSampleRaw) != 0) {
        const std::uint32_t size = r.u32("raw.size");
        s.raw = r.bytes(size, "raw.data");
    }
    if (!r.ok()) return r.take_error();
    return PerfRecord{std::move(s)};
}

Mmap2Record read_mmap2(ByteReader& r, const RawRecord& rec, const SampleId& sid) {
    Mmap2Record m;
    m.sid = sid;
    m.pid = r.u32("pid");
    m.tid = r.u32("tid");
    m.addr = r.u64("addr");
    m.len = r.u64("len");
    m.pgoff = r.u64("pgoff");
    r.skip(24, (rec.misc & kMiscMmapBuildId) != 0 ? "build_id" : "maj/min/ino");
    m.prot = r.u32("prot");
    m.flags = r.u32("flags");
    m.filename = c_string(r, "filename");
    return m;
}

CommRecord read_comm(ByteReader& r, const RawRecord& rec, const SampleId& sid) {
    CommRecord c;
    c.sid = sid;
    c.pid = r.u32("pid");
    c.tid = r.u32("tid");
    c.exec = (rec.misc & kMiscCommExec) != 0;
    c.comm = c_string(r, "comm");
    return c;
}

TaskRecord read_task(ByteReader& r, const RawRecord& rec, const SampleId& sid) {
    TaskRecord t;
    t.sid = sid;
    t.fork = rec.type == static_cast<std::uint32_t>(RecordType::Fork);
    t.pid = r.u32("pid");
    t.ppid = r.u32("ppid");
    t.tid = r.u32("tid");
    t.ptid = r.u32("ptid");
    t.time = r.u64("time");
    return t;
}

LostRecord read_lost(ByteReader& r, const RawRecord& rec, const SampleId& sid) {
    LostRecord l;
    l.sid = sid;
    l.samples = rec.type == static_cast<std::uint32_t>(RecordType::LostSamples);
    if (!l.samples) r.skip(8, "id");
    l.lost = r.u64("lost");
    return l;
}

ThrottleRecord read_throttle(ByteReader& r, const RawRecord& rec, const SampleId& sid) {
    ThrottleRecord t;
    t.sid = sid;
    t.throttled = rec.type == static_cast<std::uint32_t>(RecordType::Throttle);
    r.skip(24, "time/id/stream_id");
    return t;
}

SwitchRecord read_switch(ByteReader& r, const RawRecord& rec, const SampleId& sid) {
    SwitchRecord s;
    s.sid = sid;
    s.out = (rec.misc & kMiscSwitchOut) != 0;
    s.preempted = (rec.misc & kMiscSwitchOutPreempt) != 0;
    s.cpu_wide = rec.type == static_cast<std::uint32_t>(RecordType::SwitchCpuWide);
    if (s.cpu_wide) {
        s.next_prev_pid = r.i32("next_prev_pid");
        s.next_prev_tid = r.i32("next_prev_tid");
    }
    return s;
}

// The body before the trailer, by record type.
PerfRecord read_body(ByteReader& r, const RawRecord& rec, const SampleId& sid) {
    switch (static_cast<RecordType>(rec.type)) {
        case RecordType::Mmap2:
            return read_mmap2(r, rec, sid);
        case RecordType::Comm:
            return read_comm(r, rec, sid);
        case RecordType::Fork:
        case RecordType::Exit:
            return read_task(r, rec, sid);
        case RecordType::Lost:
        case RecordType::LostSamples:
            return read_lost(r, rec, sid);
        case RecordType::Throttle:
        case RecordType::Unthrottle:
            return read_throttle(r, rec, sid);
        case RecordType::Switch:
        case RecordType::SwitchCpuWide:
            return read_switch(r, rec, sid);
        default:
            return OtherRecord{rec.type};
    }
}

// Reads the trailer first (it names the layout), then the body before it.
Result<PerfRecord> parse_with_trailer(const RawRecord& rec, const LayoutTable& layouts,
                                      std::string_view input) {
    const char* kind = record_kind_name(rec.type);
    ByteReader whole(rec.body, wire::Endian::Little, rec.offset + kHeaderBytes, std::string(input));
    whole.set_record(kind);
    whole.set_whole_record();  // cut out by its header's size
    if (rec.body.size() < 8) {
        whole.fail("record too short for its sample_id", "sample_id.identifier");
        return whole.take_error();
    }
    whole.seek(rec.body.size() - 8);
    const std::uint64_t id = whole.u64("sample_id.identifier");
    const std::uint64_t* st = layouts.find(id);
    if (st == nullptr) {
        whole.fail("unknown event id " + std::to_string(id), "sample_id.identifier");
        return whole.take_error();
    }
    const std::size_t tb = trailer_bytes(*st);
    if (tb > rec.body.size()) {
        whole.fail("record too short for its sample_id", "sample_id");
        return whole.take_error();
    }
    const std::size_t body_len = rec.body.size() - tb;
    SampleId sid;
    ByteReader tr(rec.body.subspan(body_len), wire::Endian::Little,
                  rec.offset + kHeaderBytes + body_len, std::string(input));
    tr.set_record(kind);
    tr.set_whole_record();
    read_trailer(tr, *st, sid);
    if (!tr.ok()) return tr.take_error();

    ByteReader r(rec.body.first(body_len), wire::Endian::Little, rec.offset + kHeaderBytes,
                 std::string(input));
    r.set_record(kind);
    r.set_whole_record();
    PerfRecord out = read_body(r, rec, sid);
    if (!r.ok()) return r.take_error();
    return out;
}

}  // namespace

bool LayoutTable::add(std::uint64_t id, std::uint64_t sample_type) {
    if ((sample_type & kSampleIdentifier) == 0 || (sample_type & ~kSupportedSampleTypes) != 0)
        return false;
    types_[id] = sample_type;
    return true;
}

const std::uint64_t* LayoutTable::find(std::uint64_t id) const {
    auto it = types_.find(id);
    return it == types_.end() ? nullptr : &it->second;
}

Result<PerfRecord> RecordParser::parse(const RawRecord& rec, std::string_view input) const {
    switch (static_cast<RecordType>(rec.type)) {
        case RecordType::Sample:
            return parse_sample(rec, layouts_, input);
        case RecordType::Mmap2:
        case RecordType::Comm:
        case RecordType::Fork:
        case RecordType::Exit:
        case RecordType::Lost:
        case RecordType::LostSamples:
        case RecordType::Throttle:
        case RecordType::Unthrottle:
        case RecordType::Switch:
        case RecordType::SwitchCpuWide:
            return parse_with_trailer(rec, layouts_, input);
        default:
            return PerfRecord{OtherRecord{rec.type}};
    }
}

const char* record_kind_name(std::uint32_t type) {
    switch (static_cast<RecordType>(type)) {
        case RecordType::Mmap:
            return "MMAP";
        case RecordType::Lost:
            return "LOST";
        case RecordType::Comm:
            return "COMM";
        case RecordType::Exit:
            return "EXIT";
        case RecordType::Throttle:
            return "THROTTLE";
        case RecordType::Unthrottle:
            return "UNTHROTTLE";
        case RecordType::Fork:
            return "FORK";
        case RecordType::Read:
            return "READ";
        case RecordType::Sample:
            return "SAMPLE";
        case RecordType::Mmap2:
            return "MMAP2";
        case RecordType::LostSamples:
            return "LOST_SAMPLES";
        case RecordType::Switch:
            return "SWITCH";
        case RecordType::SwitchCpuWide:
            return "SWITCH_CPU_WIDE";
    }
    return "other";
}

std::uint64_t record_time(const PerfRecord& r) {
    return std::visit(
        [](const auto& v) -> std::uint64_t {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, OtherRecord>) {
                return 0;
            } else {
                return v.sid.time;
            }
        },
        r);
}

}  // namespace apcgate::collectors::perf
