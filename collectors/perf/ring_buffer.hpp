// One perf ring buffer (perf_event_open(2), "MMAP layout"): a control page followed by a data
// area of 2^n pages the kernel writes records into. data_head (written by the kernel) and
// data_tail (written by us) are byte positions that only grow; the bytes of position p live at
// data[p % size], so a record may wrap past the end of the area. We copy [tail, head) out,
// linear, a bounded chunk of whole records at a time, and hand each chunk's space back by storing
// its end as the new tail: a ring that filled during a stall (8 MiB) never needs a copy as large.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "protocol/wire/result.hpp"
#include "protocol/wire/unique_mapping.hpp"

namespace apcgate::collectors::perf {

// Appends the bytes at stream positions [tail, head) of a ring data area (size a power of two)
// to `out`, joining the part that wraps past the end to the part at the start. Fails and copies
// nothing when head is behind tail or more than the area ahead of it.
Status copy_ring(std::span<const std::uint8_t> data, std::uint64_t tail, std::uint64_t head,
                 std::vector<std::uint8_t>& out);

// The end of the longest run of whole records from `tail` that is at most `max_bytes` long (at
// least one record, whatever its size), walking the records' headers (perf_event_header: u16
// size at byte 6, native order) in a ring data area of power-of-two size. Returns `head` when
// [tail, head) fits, and also when a header is malformed (a size below 8 or past head): the
// tokenizer then reports it where it is, as it would without chunks.
std::uint64_t whole_records_end(std::span<const std::uint8_t> data, std::uint64_t tail,
                                std::uint64_t head, std::size_t max_bytes);

class PerfRing {
  public:
    // Maps the ring of `fd` with `data_bytes` (a power-of-two number of pages) of data area.
    static Result<PerfRing> map(int fd, std::size_t data_bytes);

    struct Drained {
        std::uint64_t position = 0;  // stream position of the first byte appended
        std::size_t bytes = 0;
        bool more = false;  // records were left for the next call
    };
    // Appends what was written since the last drain, whole records up to `max_bytes` of it (see
    // whole_records_end), to `out` and releases that space to the kernel.
    Result<Drained> drain(std::vector<std::uint8_t>& out,
                          std::size_t max_bytes = static_cast<std::size_t>(-1));
    [[nodiscard]] bool mapped() const { return mapping_.valid(); }
    [[nodiscard]] std::size_t data_bytes() const { return data_bytes_; }

  private:
    wire::UniqueMapping mapping_;  // the control page, then the data area
    std::size_t data_bytes_ = 0;
};

}  // namespace apcgate::collectors::perf
