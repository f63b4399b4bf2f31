#include "protocol/perf_framing/perf_record.hpp"

#include <linux/perf_event.h>

#include <bit>
#include <cstring>

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::perf_framing {

namespace {

// Newer than the uapi headers Debian 12 ships (linux 6.8: one u64 of counters per branch entry).
constexpr std::uint64_t kBranchCounters = 1ull << 19;

std::uint64_t load_le64(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    return v;
}

void read_values(wire::ByteReader& r, std::uint64_t read_format, std::vector<ReadValue>& out) {
    auto one = [&]() {
        ReadValue v;
        v.value = r.u64("read value");
        if (read_format & PERF_FORMAT_ID) v.id = r.u64("read id");
        if (read_format & PERF_FORMAT_LOST) r.u64("read lost");
        out.push_back(v);
    };
    if (read_format & PERF_FORMAT_GROUP) {
        const std::uint64_t nr = r.u64("read nr");
        if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) r.u64("time_enabled");
        if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) r.u64("time_running");
        // Each member is at least 8 bytes: a count beyond the bytes left is corrupt.
        if (nr > r.remaining() / 8) {
            r.fail("read group of " + std::to_string(nr) + " members overruns the record",
                   "read nr");
            return;
        }
        for (std::uint64_t i = 0; i < nr && r.ok(); ++i) one();
    } else {
        ReadValue v;
        v.value = r.u64("read value");
        if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) r.u64("time_enabled");
        if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) r.u64("time_running");
        if (read_format & PERF_FORMAT_ID) v.id = r.u64("read id");
        if (read_format & PERF_FORMAT_LOST) r.u64("read lost");
        out.push_back(v);
    }
}

void skip_words(wire::ByteReader& r, std::uint64_t n, std::string_view field) {
    if (n > r.remaining() / 8) {
        r.fail(std::to_string(n) + " words overrun the record", field);
        return;
    }
    r.skip(static_cast<std::size_t>(n * 8), field);
}

void read_sample(wire::ByteReader& r, const PerfAttr& a, PerfRecord& out) {
    const std::uint64_t t = a.sample_type;
    if (t & PERF_SAMPLE_IDENTIFIER) out.identifier = r.u64("identifier");
    if (t & PERF_SAMPLE_IP) out.ip = r.u64("ip");
    if (t & PERF_SAMPLE_TID) out.pid = r.u32("pid"), out.tid = r.u32("tid");
    if (t & PERF_SAMPLE_TIME) out.time = r.u64("time");
    if (t & PERF_SAMPLE_ADDR) r.u64("addr");
    if (t & PERF_SAMPLE_ID) out.id = r.u64("id");
    if (t & PERF_SAMPLE_STREAM_ID) out.stream_id = r.u64("stream_id");
    if (t & PERF_SAMPLE_CPU) out.cpu = r.u32("cpu"), r.u32("cpu res");
    if (t & PERF_SAMPLE_PERIOD) out.period = r.u64("period");
    if (t & PERF_SAMPLE_READ) read_values(r, a.read_format, out.reads);
    if (t & PERF_SAMPLE_CALLCHAIN) {
        out.callchain_depth = r.u64("callchain nr");
        const std::size_t at = r.pos();
        skip_words(r, out.callchain_depth, "callchain ips");
        if (r.ok()) out.callchain = r.data().subspan(at, r.pos() - at);
    }
    if (t & PERF_SAMPLE_RAW) {
        const std::uint32_t n = r.u32("raw size");
        out.raw = r.bytes(n, "raw data");
        // The kernel pads the u32 size and the data to a multiple of 8 bytes.
        const std::size_t pad = (8 - ((4 + static_cast<std::size_t>(n)) % 8)) % 8;
        r.skip(pad, "raw padding");
    }
    if (t & PERF_SAMPLE_BRANCH_STACK) {
        const std::uint64_t nr = r.u64("branch nr");
        if (a.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) r.u64("branch hw_idx");
        skip_words(r, nr > UINT64_MAX / 3 ? UINT64_MAX : nr * 3, "branch entries");
        if (a.branch_sample_type & kBranchCounters) skip_words(r, nr, "branch counters");
    }
    if (t & PERF_SAMPLE_REGS_USER) {
        if (r.u64("regs_user abi") != 0)
            skip_words(r, static_cast<std::uint64_t>(std::popcount(a.sample_regs_user)),
                       "regs_user");
    }
    if (t & PERF_SAMPLE_STACK_USER) {
        const std::uint64_t n = r.u64("stack_user size");
        if (n % 8 != 0) r.fail("user stack size not a multiple of 8", "stack_user size");
        skip_words(r, n / 8, "stack_user data");
        if (n != 0) r.u64("stack_user dyn_size");
    }
    if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) r.u64("weight");
    if (t & PERF_SAMPLE_DATA_SRC) r.u64("data_src");
    if (t & PERF_SAMPLE_TRANSACTION) r.u64("transaction");
    if (t & PERF_SAMPLE_REGS_INTR) {
        if (r.u64("regs_intr abi") != 0)
            skip_words(r, static_cast<std::uint64_t>(std::popcount(a.sample_regs_intr)),
                       "regs_intr");
    }
    if (t & PERF_SAMPLE_PHYS_ADDR) r.u64("phys_addr");
    if (t & PERF_SAMPLE_CGROUP) r.u64("cgroup");
    if (t & PERF_SAMPLE_DATA_PAGE_SIZE) r.u64("data_page_size");
    if (t & PERF_SAMPLE_CODE_PAGE_SIZE) r.u64("code_page_size");
    if (t & PERF_SAMPLE_AUX) {
        const std::uint64_t n = r.u64("aux size");
        if (n % 8 != 0) r.fail("aux sample size not a multiple of 8", "aux size");
        skip_words(r, n / 8, "aux data");
    }
}

void read_trailer(wire::ByteReader& r, const PerfAttr& a, PerfRecord& out) {
    if (!a.sample_id_all()) return;
    const std::uint64_t t = a.sample_type;
    if (t & PERF_SAMPLE_TID) out.pid = r.u32("sample_id pid"), out.tid = r.u32("sample_id tid");
    if (t & PERF_SAMPLE_TIME) out.time = r.u64("sample_id time");
    if (t & PERF_SAMPLE_ID) out.id = r.u64("sample_id id");
    if (t & PERF_SAMPLE_STREAM_ID) out.stream_id = r.u64("sample_id stream_id");
    if (t & PERF_SAMPLE_CPU) out.cpu = r.u32("sample_id cpu"), r.u32("sample_id res");
    if (t & PERF_SAMPLE_IDENTIFIER) out.identifier = r.u64("sample_id identifier");
}

// A NUL-terminated string padded to 8 bytes that fills everything up to the trailer.
void read_padded_text(wire::ByteReader& r, std::size_t trailer, PerfRecord& out,
                      std::string_view field) {
    if (r.remaining() < trailer + 1) {
        r.fail("no room for the " + std::string(field) + " before the sample_id", field);
        return;
    }
    const auto area = r.bytes(r.remaining() - trailer, field);
    const void* nul = std::memchr(area.data(), 0, area.size());
    if (nul == nullptr) {
        r.fail(std::string(field) + " has no terminating NUL", field);
        return;
    }
    const auto len = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nul) - area.data());
    out.text = std::string_view(reinterpret_cast<const char*>(area.data()), len);  // NOLINT
}

void read_pid_tid(wire::ByteReader& r, PerfRecord& out) {
    out.body_pid = r.u32("pid"), out.body_tid = r.u32("tid");
}

// MMAP and MMAP2 start alike: who mapped which address range at which file offset.
void read_mapping(wire::ByteReader& r, PerfRecord& out) {
    read_pid_tid(r, out);
    out.map_addr = r.u64("addr"), out.map_len = r.u64("len"), out.map_pgoff = r.u64("pgoff");
}

void read_mmap(wire::ByteReader& r, std::size_t trailer, PerfRecord& out) {
    read_mapping(r, out);
    read_padded_text(r, trailer, out, "filename");
}

void read_mmap2(wire::ByteReader& r, std::size_t trailer, PerfRecord& out) {
    read_mapping(r, out);
    r.skip(24, "device/inode or build id");
    r.u32("prot"), r.u32("flags");
    read_padded_text(r, trailer, out, "filename");
}

// EXIT and FORK.
void read_task(wire::ByteReader& r, PerfRecord& out) {
    out.body_pid = r.u32("pid"), out.parent_pid = r.u32("ppid");
    out.body_tid = r.u32("tid"), out.parent_tid = r.u32("ptid");
    r.u64("time");
}

void read_namespaces(wire::ByteReader& r, PerfRecord& out) {
    read_pid_tid(r, out);
    const std::uint64_t nr = r.u64("nr_namespaces");
    skip_words(r, nr > UINT64_MAX / 2 ? UINT64_MAX : nr * 2, "namespaces");
}

void skip_text_poke(wire::ByteReader& r, std::size_t trailer) {
    r.u64("addr");
    const std::uint16_t old_len = r.u16("old_len");
    const std::uint16_t new_len = r.u16("new_len");
    r.skip(static_cast<std::size_t>(old_len) + new_len, "bytes");
    // Padded so that the body ends on an 8-byte boundary before the trailer.
    if (r.remaining() >= trailer) r.skip(r.remaining() - trailer, "padding");
}

void read_body(wire::ByteReader& r, const PerfAttr& a, PerfRecord& out) {
    const std::size_t trailer = sample_id_trailer_bytes(a);
    switch (out.header.type) {
        case PERF_RECORD_MMAP:
            read_mmap(r, trailer, out);
            break;
        case PERF_RECORD_LOST:
            r.u64("id");
            out.lost = r.u64("lost");
            break;
        case PERF_RECORD_COMM:
            read_pid_tid(r, out);
            read_padded_text(r, trailer, out, "comm");
            break;
        case PERF_RECORD_EXIT:
        case PERF_RECORD_FORK:
            read_task(r, out);
            break;
        case PERF_RECORD_THROTTLE:
        case PERF_RECORD_UNTHROTTLE:
            r.u64("time"), r.u64("id"), r.u64("stream_id");
            break;
        case PERF_RECORD_READ:
            read_pid_tid(r, out);
            read_values(r, a.read_format, out.reads);
            break;
        case PERF_RECORD_MMAP2:
            read_mmap2(r, trailer, out);
            break;
        case PERF_RECORD_AUX:
            r.u64("aux_offset"), r.u64("aux_size"), r.u64("flags");
            break;
        case PERF_RECORD_ITRACE_START:
            read_pid_tid(r, out);
            break;
        case PERF_RECORD_LOST_SAMPLES:
            out.lost = r.u64("lost");
            break;
        case PERF_RECORD_SWITCH:
            break;
        case PERF_RECORD_SWITCH_CPU_WIDE:
            out.body_pid = r.u32("next_prev_pid"), out.body_tid = r.u32("next_prev_tid");
            break;
        case PERF_RECORD_NAMESPACES:
            read_namespaces(r, out);
            break;
        case PERF_RECORD_KSYMBOL:
            r.u64("addr"), r.u32("len"), r.u16("ksym_type"), r.u16("flags");
            read_padded_text(r, trailer, out, "name");
            break;
        case PERF_RECORD_BPF_EVENT:
            r.u16("type"), r.u16("flags"), r.u32("id"), r.skip(8, "tag");
            break;
        case PERF_RECORD_CGROUP:
            r.u64("id");
            read_padded_text(r, trailer, out, "path");
            break;
        case PERF_RECORD_TEXT_POKE:
            skip_text_poke(r, trailer);
            break;
        case PERF_RECORD_AUX_OUTPUT_HW_ID:
            r.u64("hw_id");
            break;
        default:
            r.fail("unknown perf record type " + std::to_string(out.header.type), "type");
            return;
    }
    read_trailer(r, a, out);
}

}  // namespace

RecordHeader record_header(std::uint64_t first_word) {
    RecordHeader h;
    h.type = static_cast<std::uint32_t>(first_word);
    h.misc = static_cast<std::uint16_t>(first_word >> 32);
    h.size = static_cast<std::uint16_t>(first_word >> 48);
    return h;
}

std::string record_type_name(std::uint32_t type) {
    switch (type) {
        case PERF_RECORD_MMAP:
            return "MMAP";
        case PERF_RECORD_LOST:
            return "LOST";
        case PERF_RECORD_COMM:
            return "COMM";
        case PERF_RECORD_EXIT:
            return "EXIT";
        case PERF_RECORD_THROTTLE:
            return "THROTTLE";
        case PERF_RECORD_UNTHROTTLE:
            return "UNTHROTTLE";
        case PERF_RECORD_FORK:
            return "FORK";
        case PERF_RECORD_READ:
            return "READ";
        case PERF_RECORD_SAMPLE:
            return "SAMPLE";
        case PERF_RECORD_MMAP2:
            return "MMAP2";
        case PERF_RECORD_AUX:
            return "AUX";
        case PERF_RECORD_ITRACE_START:
            return "ITRACE_START";
        case PERF_RECORD_LOST_SAMPLES:
            return "LOST_SAMPLES";
        case PERF_RECORD_SWITCH:
            return "SWITCH";
        case PERF_RECORD_SWITCH_CPU_WIDE:
            return "SWITCH_CPU_WIDE";
        case PERF_RECORD_NAMESPACES:
            return "NAMESPACES";
        case PERF_RECORD_KSYMBOL:
            return "KSYMBOL";
        case PERF_RECORD_BPF_EVENT:
            return "BPF_EVENT";
        case PERF_RECORD_CGROUP:
            return "CGROUP";
        case PERF_RECORD_TEXT_POKE:
            return "TEXT_POKE";
        case PERF_RECORD_AUX_OUTPUT_HW_ID:
            return "AUX_OUTPUT_HW_ID";
        default:
            return "type " + std::to_string(type);
    }
}

std::optional<std::uint64_t> record_identifier(std::span<const std::uint8_t> record) {
    if (record.size() < kRecordHeaderBytes + 8) return std::nullopt;
    const RecordHeader h = record_header(load_le64(record.data()));
    if (h.type == PERF_RECORD_SAMPLE) return load_le64(record.data() + kRecordHeaderBytes);
    return load_le64(record.data() + record.size() - 8);
}

Result<PerfRecord> parse_record(std::span<const std::uint8_t> record, const PerfAttr& attr) {
    wire::ByteReader r(record);
    r.set_whole_record();  // cut out by its header's size
    PerfRecord out;
    const std::uint64_t first = r.u64("header");
    out.header = record_header(first);
    r.set_record(record_type_name(out.header.type));
    if (!r.ok()) return r.take_error();
    if (out.header.size != record.size()) {
        r.seek(6);
        r.fail("header size " + std::to_string(out.header.size) + " but the record has " +
                   std::to_string(record.size()) + " bytes",
               "size");
        return r.take_error();
    }
    if (out.header.type == PERF_RECORD_SAMPLE) {
        read_sample(r, attr, out);
    } else {
        read_body(r, attr, out);
    }
    if (!r.ok()) return r.take_error();
    if (!r.at_end()) {
        r.fail(std::to_string(r.remaining()) +
               " bytes left over after the fields the attr selects");
        return r.take_error();
    }
    return out;
}

}  // namespace apcgate::perf_framing
