// Hand-made CTF 1.8 traces for the cases no producer here can make (LTTng kernel tracing is not
// available on the test machines): TSDL metadata text and packetised data stream files with the
// layout LTTng uses (ctf-rfc-v1.1.txt sections 5-7), every field byte-aligned little-endian.
//   packet  := magic:u32 (0xC1FC1FC1) stream_id:u32
//              timestamp_begin:u64 timestamp_end:u64 content_size:u64 packet_size:u64
//              events_discarded:u64 cpu_id:u32 [packet_seq_num:u64, with ClockAndSequence]
//              event* (id:u32 timestamp:u64 payload)
// The events_discarded field is the stream's running count, as LTTng writes it: libbabeltrace2
// reports the difference between consecutive packets as discarded events.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace apcgate::ctf_test {

// The bytes of one event payload, built field by field in metadata order.
class Payload {
  public:
    Payload& u32(std::uint32_t v);
    Payload& i32(std::int32_t v) { return u32(static_cast<std::uint32_t>(v)); }
    Payload& u64(std::uint64_t v);
    Payload& i64(std::int64_t v) { return u64(static_cast<std::uint64_t>(v)); }
    Payload& str(const std::string& s);
    [[nodiscard]] const std::vector<std::uint8_t>& bytes() const { return bytes_; }

  private:
    std::vector<std::uint8_t> bytes_;
};

struct EventClass {
    std::string name;
    std::string fields;  // TSDL members, e.g. "string prev_comm; int32_t prev_tid;"
};

// The trace clock (CTF 1.8 section 8: ns = (offset + value) / freq * 1e9 + offset_s * 1e9) and
// whether packets carry LTTng's packet_seq_num (a gap in it is a discarded packet).
struct ClockAndSequence {
    std::uint64_t freq = 1000000000;
    std::int64_t offset_s = 1700000000;
    std::int64_t offset_cycles = 0;
    bool packet_seq_num = false;
    std::string name = "monotonic";  // the clock's name (LTTng's is "monotonic")
    std::string uuid{};              // the clock's UUID (canonical text), none when empty
};

struct TraceEvent {
    std::uint32_t id = 0;  // index into the event classes
    std::uint64_t ts = 0;  // clock cycles (by default 1 GHz: ns) since the clock's offset
    Payload payload;
};

class CtfTraceWriter {
  public:
    // Types available in `fields`: uint32_t int32_t uint64_t int64_t string.
    CtfTraceWriter(std::filesystem::path dir, std::vector<EventClass> classes,
                   std::string env_domain = "kernel", ClockAndSequence clock = {});

    // Appends one packet of `events` (non-decreasing ts) to the stream file `file`.
    // `seq_num` is written only when the trace has packet_seq_num.
    void packet(const std::string& file, std::uint32_t cpu, std::uint64_t discarded_so_far,
                const std::vector<TraceEvent>& events, std::uint64_t seq_num = 0);
    // Writes the metadata file; the stream files are written as packets are added.
    void finish();
    // The env hostname written in the metadata ("ctf-test-host" unless set).
    void set_hostname(std::string hostname) { hostname_ = std::move(hostname); }
    // The trace's UUID (canonical text) in its metadata; none unless set.
    void set_trace_uuid(std::string uuid) { trace_uuid_ = std::move(uuid); }
    // Packet headers carry a stream_instance_id (CTF 1.8 section 5), `id` for the stream file
    // `file` (0 for files not named); set before the first packet.
    void set_stream_instance_id(const std::string& file, std::uint64_t id) {
        instance_ids_[file] = id;
    }
    // No clock: event and packet times are plain integers, the streams have no default clock.
    void set_clockless() { clockless_ = true; }

    [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }
    [[nodiscard]] std::string metadata() const;

  private:
    std::filesystem::path dir_;
    std::vector<EventClass> classes_;
    std::string domain_;
    ClockAndSequence clock_;
    std::string hostname_ = "ctf-test-host";
    std::string trace_uuid_;
    std::map<std::string, std::uint64_t> instance_ids_;
    bool clockless_ = false;
};

// A UST trace of `packets` packets of `per_packet` `app:tick` events (i = 0.., s = "x"), 10 ns
// apart: enough events to span several of the source's chunks when asked.
std::filesystem::path write_tick_trace(const std::filesystem::path& dir, int packets,
                                       int per_packet);

}  // namespace apcgate::ctf_test
