// Which bytes of the record area hold records, and in what order (barman-v2-format.txt,
// "Record Data", "Data Store Types"). Records are read as one logical byte stream starting at
// 0; a linear store maps it straight onto [read_offset, write_offset), a circular store onto
// [read, end of buffer) then [0, write). Real agents keep read_offset, write_offset and
// total_written as monotonic byte counts, so positions are reduced modulo buffer_length, as the
// spec's code does.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "collectors/barman/header.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::barman {

struct StoreGeometry {
    std::uint64_t area = 0;           // file offset of the record area
    std::uint64_t buffer_length = 0;  // bytes of the record area
    std::uint64_t start = 0;          // physical offset of logical byte 0
    std::uint64_t data_length = 0;    // logical bytes to decode (what the file really has)
    bool circular = false;
    // Logical offset where a circular store reaches the physical end of the buffer and
    // continues at physical 0 (for a linear store: never).
    std::uint64_t wrap = UINT64_MAX;
    // Records before the first one are gone (a circular store overwrote them): counter reads
    // then have no earlier value to subtract.
    bool evicted = false;
    // Set when the file ends before the data the header describes: the records up to the end
    // of the file are read, then this is reported as the reason reading stopped.
    std::optional<Error> truncated;

    [[nodiscard]] std::uint64_t physical(std::uint64_t logical) const {
        return logical < wrap ? start + logical : logical - wrap;
    }
    [[nodiscard]] std::uint64_t file_offset(std::uint64_t logical) const {
        return area + physical(logical);
    }
};

// Works out the geometry from the header's data store parameters and the file size. Offsets
// that contradict each other are reported in `problems` and clamped to what is readable.
StoreGeometry plan_store(const Header& header, std::uint64_t file_size,
                         std::vector<Error>& problems);

}  // namespace apcgate::collectors::barman
