// One line of text per Perf-type frame, per PERF_ATTRS message and per perf record for
// `apcgate inspect --dump`, in the v6.8 dump's style (protocol/apc/dump_line.hpp):
//   0x00000104 frame PERF_DATA size=180210 cpu=0 packed=180197 raw=245760
//   0x0000010a   SAMPLE cpu=0 time=4862225575465 key=0x7fffffff pid=12 tid=12
// Offsets are byte offsets in the input; a record's is that of its first packed word.
#pragma once

#include <string>

#include "protocol/perf_framing/capture_check.hpp"
#include "protocol/perf_framing/frames.hpp"

namespace apcgate::perf_framing {

// The frame's line and, for PERF_ATTRS, one line per message, each ending in '\n', appended to
// `out`. `size` is the frame body's size.
void format_frame(const DecodedPerfFrame& frame, std::size_t size, std::string& out);
// The record's line, ending in '\n', appended to `out`.
void format_record(const RecordView& record, std::string& out);

}  // namespace apcgate::perf_framing
