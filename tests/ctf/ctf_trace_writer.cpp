#include "ctf_trace_writer.hpp"

#include <fstream>

namespace apcgate::ctf_test {

namespace {

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_u64(std::vector<std::uint8_t>& out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

}  // namespace

Payload& Payload::u32(std::uint32_t v) {
    put_u32(bytes_, v);
    return *this;
}
Payload& Payload::u64(std::uint64_t v) {
    put_u64(bytes_, v);
    return *this;
}
Payload& Payload::str(const std::string& s) {
    bytes_.insert(bytes_.end(), s.begin(), s.end());
    bytes_.push_back(0);
    return *this;
}

CtfTraceWriter::CtfTraceWriter(std::filesystem::path dir, std::vector<EventClass> classes,
                               std::string env_domain, ClockAndSequence clock)
    : dir_(std::move(dir)),
      classes_(std::move(classes)),
      domain_(std::move(env_domain)),
      clock_(std::move(clock)) {
    std::filesystem::create_directories(dir_);
}

std::string CtfTraceWriter::metadata() const {
    std::string m =
        "/* CTF 1.8 */\n"
        "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
        "typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
        "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
        "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
        "trace {\n  major = 1;\n  minor = 8;\n  byte_order = le;\n";
    if (!trace_uuid_.empty()) m += "  uuid = \"" + trace_uuid_ + "\";\n";
    m += "  packet.header := struct { uint32_t magic; uint32_t stream_id; ";
    if (!instance_ids_.empty()) m += "uint64_t stream_instance_id; ";
    m += "};\n};\n";
    m += "env {\n  hostname = \"" + hostname_ + "\";\n  domain = \"" + domain_ +
         "\";\n  tracer_name = \"hand-made\";\n};\n";
    if (clockless_) {
        m += "typealias integer { size = 64; align = 8; signed = false; } := clock_u64;\n";
    } else {
        m += "clock {\n  name = \"" + clock_.name + "\";\n  freq = " + std::to_string(clock_.freq) +
             ";\n  offset_s = " + std::to_string(clock_.offset_s) +
             ";\n  offset = " + std::to_string(clock_.offset_cycles) + ";\n";
        if (!clock_.uuid.empty()) m += "  uuid = \"" + clock_.uuid + "\";\n";
        m += "};\n"
             "typealias integer { size = 64; align = 8; signed = false; map = clock." +
             clock_.name + ".value; } := clock_u64;\n";
    }
    m += "stream {\n  id = 0;\n"
         "  packet.context := struct { clock_u64 timestamp_begin; clock_u64 timestamp_end;\n"
         "    uint64_t content_size; uint64_t packet_size; uint64_t events_discarded;\n"
         "    uint32_t cpu_id; " +
         std::string(clock_.packet_seq_num ? "uint64_t packet_seq_num; " : "") +
         "};\n"
         "  event.header := struct { uint32_t id; clock_u64 timestamp; };\n};\n";
    for (std::size_t i = 0; i < classes_.size(); ++i) {
        m += "event {\n  name = \"" + classes_[i].name + "\";\n  id = " + std::to_string(i) +
             ";\n  stream_id = 0;\n  fields := struct { " + classes_[i].fields + " };\n};\n";
    }
    return m;
}

void CtfTraceWriter::packet(const std::string& file, std::uint32_t cpu,
                            std::uint64_t discarded_so_far, const std::vector<TraceEvent>& events,
                            std::uint64_t seq_num) {
    std::vector<std::uint8_t> body;
    for (const auto& e : events) {
        put_u32(body, e.id);
        put_u64(body, e.ts);
        body.insert(body.end(), e.payload.bytes().begin(), e.payload.bytes().end());
    }
    const bool instance = !instance_ids_.empty();
    const std::size_t header_bytes =
        4 + 4 + (instance ? 8 : 0) + 8 * 5 + 4 + (clock_.packet_seq_num ? 8 : 0);
    const std::uint64_t bits = (header_bytes + body.size()) * 8;
    std::vector<std::uint8_t> p;
    put_u32(p, 0xC1FC1FC1);
    put_u32(p, 0);
    if (instance) {
        const auto id = instance_ids_.find(file);
        put_u64(p, id != instance_ids_.end() ? id->second : 0);
    }
    put_u64(p, events.empty() ? 0 : events.front().ts);
    put_u64(p, events.empty() ? 0 : events.back().ts);
    put_u64(p, bits);  // content_size
    put_u64(p, bits);  // packet_size: no padding
    put_u64(p, discarded_so_far);
    put_u32(p, cpu);
    if (clock_.packet_seq_num) put_u64(p, seq_num);
    p.insert(p.end(), body.begin(), body.end());
    std::ofstream out(dir_ / file, std::ios::binary | std::ios::app);
    for (std::uint8_t b : p) out.put(static_cast<char>(b));
}

void CtfTraceWriter::finish() {
    std::ofstream out(dir_ / "metadata", std::ios::binary | std::ios::trunc);
    out << metadata();
}

std::filesystem::path write_tick_trace(const std::filesystem::path& dir, int packets,
                                       int per_packet) {
    CtfTraceWriter w(dir, {{"app:tick", "int32_t i; string s;"}}, "ust");
    std::uint64_t ts = 0;
    for (int p = 0; p < packets; ++p) {
        std::vector<TraceEvent> events;
        events.reserve(static_cast<std::size_t>(per_packet));
        for (int i = 0; i < per_packet; ++i)
            events.push_back({0, ts += 10, Payload().i32(i).str("x")});
        w.packet("chan_0", 0, 0, events);
    }
    w.finish();
    return dir;
}

}  // namespace apcgate::ctf_test
