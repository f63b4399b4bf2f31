// Pass 1 over an FDR log (FDR spec "Format Grammar"; compiler-rt's flush writes, per buffer,
// a BufferExtents record and then exactly that many bytes of records from version 2 on):
//
//   v2-5:  Header { BufferExtents(size) NewBuffer WallClockTime [Pid] NewCPUId ... }*
//          the next buffer starts right after `size` bytes
//   v1:    Header { NewBuffer WallClockTime NewCPUId ... EndOfBuffer junk }*
//          every buffer is the header's buffer_size long
//
// It decodes only the records that open each buffer (thread, process, wall clock, first TSC)
// and, of the rest, the CPUs a thread moved to (NewCPUId, v4 custom events), stepping over
// runs of function records. A buffer that does not start where the
// previous one said it ends is reported, and the pass resynchronises on the next BufferExtents
// record that is followed by a NewBuffer record (v1: on the next NewBuffer followed by
// WallClockTime).
#pragma once

#include <span>
#include <string>

#include "collectors/ingest/ingest_report.hpp"
#include "collectors/xray/fdr_records.hpp"
#include "collectors/xray/log_index.hpp"
#include "collectors/xray/xray_header.hpp"
#include "collectors/xray/xray_stats.hpp"

namespace apcgate::collectors::xray {

// The record layout of this log. Big-endian logs come in two bit orders: the spec's (a real
// big-endian writer's C bitfields, MSB first) and llvm-xray's (LSB first in swapped bytes);
// the first record, always a BufferExtents or NewBuffer, tells them apart.
FdrFormat fdr_format(const FileHeader& header, std::span<const std::uint8_t> data);

// Finds every buffer of `data` (the whole log, header included). Problems go to `report`.
LogIndex index_fdr(std::span<const std::uint8_t> data, const FdrFormat& format,
                   std::uint64_t v1_buffer_size, const std::string& input, Stats& stats,
                   ingest::IngestReport& report);

}  // namespace apcgate::collectors::xray
