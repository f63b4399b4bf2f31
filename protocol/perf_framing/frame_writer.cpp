#include "protocol/perf_framing/frame_writer.hpp"

namespace apcgate::perf_framing {

namespace {

void frame_type(wire::ByteWriter& w, FrameType t) {
    w.packed32(static_cast<std::int32_t>(t));
}

}  // namespace

void write_summary(std::vector<std::uint8_t>& out, const SummaryValues& s) {
    wire::ByteWriter w(out);
    frame_type(w, FrameType::Summary);
    w.packed32(kSummaryMessage);
    w.packed_string(kSummaryCanary);
    w.packed64(s.realtime_ns);
    w.packed64(s.boottime_ns);
    w.packed64(s.monotonic_raw_ns);
    w.packed64(s.monotonic_ns);
    for (const auto& [k, v] : s.attributes) {
        w.packed_string(k);
        w.packed_string(v);
    }
    w.packed_string("");
}

AttrsFrameWriter::AttrsFrameWriter(std::vector<std::uint8_t>& out) : w_(out) {
    frame_type(w_, FrameType::PerfAttrs);
    w_.packed32(0);  // the legacy core, always 0
}

void AttrsFrameWriter::cstr(std::string_view text) {
    w_.raw(text);
    w_.u8(0);
}

void AttrsFrameWriter::pea(std::span<const std::uint8_t> attr_bytes, std::int32_t key) {
    w_.packed32(static_cast<std::int32_t>(AttrsCode::Pea));
    w_.raw(attr_bytes);
    w_.packed32(key);
}

void AttrsFrameWriter::keys(std::span<const std::pair<std::uint64_t, std::int32_t>> ids) {
    w_.packed32(static_cast<std::int32_t>(AttrsCode::Keys));
    w_.packed32(static_cast<std::int32_t>(ids.size()));
    for (const auto& [id, key] : ids) {
        w_.packed64(static_cast<std::int64_t>(id));
        w_.packed32(key);
    }
}

void AttrsFrameWriter::format(std::string_view text) {
    w_.packed32(static_cast<std::int32_t>(AttrsCode::Format));
    cstr(text);
}

void AttrsFrameWriter::maps(std::int32_t pid, std::int32_t tid, std::string_view text) {
    w_.packed32(static_cast<std::int32_t>(AttrsCode::Maps));
    w_.packed32(pid);
    w_.packed32(tid);
    cstr(text);
}

void AttrsFrameWriter::comm(std::int32_t pid, std::int32_t tid, std::string_view image,
                            std::string_view comm) {
    w_.packed32(static_cast<std::int32_t>(AttrsCode::Comm));
    w_.packed32(pid);
    w_.packed32(tid);
    cstr(image);
    cstr(comm);
}

void AttrsFrameWriter::online_cpu(std::int64_t time, std::int32_t cpu) {
    w_.packed32(static_cast<std::int32_t>(AttrsCode::OnlineCpu));
    w_.packed64(time);
    w_.packed32(cpu);
}

void AttrsFrameWriter::kallsyms(std::string_view text) {
    kallsyms_head();
    cstr(text);
}

void AttrsFrameWriter::kallsyms_head() {
    w_.packed32(static_cast<std::int32_t>(AttrsCode::Kallsyms));
}

void AttrsFrameWriter::kernel_build_id(std::span<const std::uint8_t> id) {
    w_.packed32(static_cast<std::int32_t>(AttrsCode::KernelBuildId));
    w_.packed32(static_cast<std::int32_t>(id.size()));
    w_.raw(id);
}

void write_perf_data(std::vector<std::uint8_t>& out, std::int32_t cpu,
                     std::span<const std::uint8_t> records) {
    wire::ByteWriter w(out);
    frame_type(w, FrameType::PerfData);
    w.packed32(cpu);
    const std::size_t length_at = out.size();
    w.le32(0);
    const std::size_t start = out.size();
    out.reserve(out.size() + records.size() + records.size() / 4);
    std::uint8_t tmp[wire::kMaxPacked64];
    for (std::size_t i = 0; i + 8 <= records.size(); i += 8) {
        std::uint64_t word = 0;
        for (int b = 0; b < 8; ++b) word |= static_cast<std::uint64_t>(records[i + b]) << (8 * b);
        const std::size_t n = wire::encode_packed64(static_cast<std::int64_t>(word), tmp);
        out.insert(out.end(), tmp, tmp + n);
    }
    wire::patch_le32(out, length_at, static_cast<std::uint32_t>(out.size() - start));
}

void write_block_counter(std::vector<std::uint8_t>& out, std::int32_t core,
                         std::span<const std::pair<std::int32_t, std::int64_t>> entries) {
    wire::ByteWriter w(out);
    frame_type(w, FrameType::BlockCounter);
    w.packed32(core);
    for (const auto& [key, value] : entries) {
        w.packed32(key);
        w.packed64(value);
    }
}

void write_external(std::vector<std::uint8_t>& out, std::int32_t id,
                    std::span<const std::uint8_t> data) {
    wire::ByteWriter w(out);
    frame_type(w, FrameType::External);
    w.packed32(id);
    w.raw(data);
}

void write_external_disconnect(std::vector<std::uint8_t>& out, std::int32_t id) {
    wire::ByteWriter w(out);
    frame_type(w, FrameType::External);
    w.packed32(-1);
    w.packed32(id);
}

}  // namespace apcgate::perf_framing
