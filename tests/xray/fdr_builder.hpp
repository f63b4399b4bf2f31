// Hand-built XRay logs for the cases no producer on this machine writes (big-endian writers,
// old versions, corrupt and cut records), laid out as fdr_records.hpp / basic_records.hpp say.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collectors/xray/fdr_records.hpp"

namespace apcgate::xray_test {

using collectors::xray::BitOrder;
using wire_endian = apcgate::wire::Endian;

class Bytes {
  public:
    explicit Bytes(wire_endian e) : endian_(e) {}
    void u8(std::uint8_t v) { out.push_back(v); }
    void u16(std::uint16_t v) { put(v, 2); }
    void u32(std::uint32_t v) { put(v, 4); }
    void u64(std::uint64_t v) { put(v, 8); }
    void zeros(std::size_t n) { out.insert(out.end(), n, 0); }
    void raw(const std::string& s) { out.insert(out.end(), s.begin(), s.end()); }
    std::vector<std::uint8_t> out;

  private:
    void put(std::uint64_t v, int n);
    wire_endian endian_;
};

// The 32-byte header: version, type (0 basic, 1 FDR), flags, frequency, buffer size.
void write_header(Bytes& b, std::uint16_t version, std::uint16_t type, std::uint64_t frequency,
                  std::uint64_t buffer_size, bool msb_flags = false);

class FdrBuilder {
  public:
    FdrBuilder(std::uint16_t version, wire_endian endian = wire_endian::Little,
               BitOrder bits = BitOrder::LsbFirst, std::uint64_t frequency = 1'000'000'000,
               std::uint64_t buffer_size = 4096);

    // NewBuffer, WallClockTime (1000 s 5 us, or what next_wall_clock() set), Pid (v3+) and
    // NewCPUId.
    FdrBuilder& next_wall_clock(std::uint64_t seconds, std::uint32_t micros) {
        wall_seconds_ = seconds;
        wall_micros_ = micros;
        return *this;
    }
    FdrBuilder& begin_buffer(std::int32_t tid, std::int32_t pid, std::uint16_t cpu,
                             std::uint64_t tsc);
    FdrBuilder& function(std::uint8_t action, std::uint32_t function, std::uint32_t delta);
    FdrBuilder& enter(std::uint32_t f, std::uint32_t delta) { return function(0, f, delta); }
    FdrBuilder& exit(std::uint32_t f, std::uint32_t delta) { return function(1, f, delta); }
    FdrBuilder& new_cpu(std::uint16_t cpu, std::uint64_t tsc);
    FdrBuilder& tsc_wrap(std::uint64_t tsc);
    FdrBuilder& argument(std::uint64_t value);
    FdrBuilder& pid(std::int32_t pid);
    FdrBuilder& wall_clock(std::uint64_t seconds, std::uint32_t micros);
    // v5: `tsc` is the delta; v4: absolute tsc and the cpu; before: absolute tsc.
    FdrBuilder& custom(const std::string& payload, std::uint64_t tsc, std::uint16_t cpu = 0);
    FdrBuilder& typed(std::uint16_t type, const std::string& payload, std::int32_t delta);
    FdrBuilder& end_of_buffer();
    // A metadata record of any kind with the given data bytes (zero-padded to 15).
    FdrBuilder& metadata(std::uint8_t kind, const std::vector<std::uint8_t>& data = {});
    FdrBuilder& raw(const std::vector<std::uint8_t>& bytes);
    // v2+: writes BufferExtents(size of the buffer's records + `extents_adjust`) and the
    // records (only that many when the adjustment is negative, as the runtime's flush does);
    // v1: the records padded (with junk) to the header's buffer size.
    FdrBuilder& end_buffer(std::int64_t extents_adjust = 0);

    [[nodiscard]] std::vector<std::uint8_t> bytes() const { return file_.out; }
    [[nodiscard]] std::size_t size() const { return file_.out.size(); }

  private:
    std::uint8_t first_byte(std::uint8_t kind) const;
    Bytes& buf() { return buffer_; }

    std::uint16_t version_;
    wire_endian endian_;
    BitOrder bits_;
    std::uint64_t buffer_size_;
    Bytes file_;
    Bytes buffer_;
    std::uint64_t wall_seconds_ = 1000;
    std::uint32_t wall_micros_ = 5;
};

class BasicBuilder {
  public:
    BasicBuilder(std::uint16_t version, wire_endian endian = wire_endian::Little,
                 std::uint64_t frequency = 1'000'000'000);
    BasicBuilder& record(std::uint8_t action, std::int32_t function, std::uint64_t tsc,
                         std::uint32_t tid, std::uint32_t pid, std::uint8_t cpu = 0,
                         std::uint16_t type = 0);
    BasicBuilder& arg(std::int32_t function, std::uint32_t tid, std::uint32_t pid,
                      std::uint64_t value);
    [[nodiscard]] std::vector<std::uint8_t> bytes() const { return file_.out; }

  private:
    Bytes file_;
};

}  // namespace apcgate::xray_test
