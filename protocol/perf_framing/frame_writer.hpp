// Writes Perf-type frame bodies (the layouts frames.hpp reads), one frame per call, appended to
// a byte vector. The caller adds the transport's prefix: [u32le length] in a local capture's data
// file, [u8 3][u32le length] in an APC_DATA response.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/perf_framing/codes.hpp"
#include "protocol/wire/byte_writer.hpp"

namespace apcgate::perf_framing {

struct SummaryValues {
    std::int64_t realtime_ns = 0, boottime_ns = 0, monotonic_raw_ns = 0, monotonic_ns = 0;
    std::vector<std::pair<std::string, std::string>> attributes;  // "uname", "PAGESIZE", ...
};
void write_summary(std::vector<std::uint8_t>& out, const SummaryValues& s);

// One PERF_ATTRS frame holding any number of messages.
class AttrsFrameWriter {
  public:
    explicit AttrsFrameWriter(std::vector<std::uint8_t>& out);
    void pea(std::span<const std::uint8_t> attr_bytes, std::int32_t key);
    void keys(std::span<const std::pair<std::uint64_t, std::int32_t>> ids);
    void format(std::string_view text);
    void maps(std::int32_t pid, std::int32_t tid, std::string_view text);
    void comm(std::int32_t pid, std::int32_t tid, std::string_view image, std::string_view comm);
    void online_cpu(std::int64_t time, std::int32_t cpu);
    void kallsyms(std::string_view text);
    // What kallsyms(text) writes before the text; after it comes one 0 byte. For a text too
    // large to copy (5 MB or more), read into place with room for this around it.
    void kallsyms_head();
    void kernel_build_id(std::span<const std::uint8_t> id);

  private:
    void cstr(std::string_view text);
    wire::ByteWriter w_;
};

// PERF_DATA for whole records taken from one CPU's ring buffer: `records` is a multiple of 8
// bytes (little-endian words, as the kernel wrote them); each word goes out packed.
void write_perf_data(std::vector<std::uint8_t>& out, std::int32_t cpu,
                     std::span<const std::uint8_t> records);

// Block Counter: key 0 with the time (ns since the Summary's monotonic_raw), then key/value.
void write_block_counter(std::vector<std::uint8_t>& out, std::int32_t core,
                         std::span<const std::pair<std::int32_t, std::int64_t>> entries);

void write_external(std::vector<std::uint8_t>& out, std::int32_t id,
                    std::span<const std::uint8_t> data);
void write_external_disconnect(std::vector<std::uint8_t>& out, std::int32_t id);

}  // namespace apcgate::perf_framing
