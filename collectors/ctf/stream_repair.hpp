// Reading what is whole of a trace whose data stream files are damaged (a copy cut short, a
// tracer killed mid-write). libbabeltrace2 2.0 indexes every packet of every stream file when
// it opens a trace (from the packet contexts' packet_size, CTF 1.8 section 5) and refuses the
// whole trace when one packet runs past its file's end ("Failed to index CTF stream file"), so
// one cut file costs every stream. The repair makes a view of the trace in a private directory
// (scratch_dir.hpp) that libbabeltrace2 accepts: the metadata and every stream file it accepts
// alone are linked, and each other stream file is copied up to the end of its last whole packet,
// found by asking libbabeltrace2 itself (it accepts a prefix of the file exactly when the prefix
// ends where a packet ends). The candidate ends are where a packet header starts: its magic
// 0xC1FC1FC1 (section 5, in either byte order), and the file's end when it cuts that magic short.
// A stream file with no whole packet (or none found: its packets have no magic) is left out.
// Every damaged file is reported: where it was cut and what of it was not read. The user's
// input is never written to.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "protocol/wire/result.hpp"

namespace apcgate::collectors::ctf {

inline constexpr std::uint32_t kPacketMagic = 0xC1FC1FC1;
// Candidate ends tried one by one from the file's end (a file cut short loses only its last
// packet, so the first one tried is the usual answer); below them the search halves the rest.
inline constexpr std::size_t kLinearCutTries = 8;
// Packet starts remembered per file (the last ones): bounds the memory a huge file may take.
inline constexpr std::size_t kMaxPacketStarts = std::size_t{1} << 20;

// The offsets in `stream` where a packet may start, ascending, 0 excluded: the packet magic's
// offsets, and the file's end minus k when its last k < 4 bytes begin the magic.
std::vector<std::uint64_t> packet_start_candidates(const std::filesystem::path& stream);

// Whether libbabeltrace2 can open the trace directory `dir` (its metadata and stream files).
using TraceOpens = std::function<bool(const std::filesystem::path& dir)>;

struct RepairedTrace {
    std::filesystem::path dir;  // the view to read instead of the trace
    std::vector<Error> losses;  // one per damaged stream file, naming the file and the cut
};

// A view of the trace `trace` in the new directory `view` (its parent must exist), when its
// metadata opens alone and some stream file is damaged; nullopt when the metadata does not open
// or no stream file is damaged (the trace's problem lies elsewhere).
std::optional<RepairedTrace> repair_trace(const std::filesystem::path& trace,
                                          const std::filesystem::path& view,
                                          const TraceOpens& opens);

}  // namespace apcgate::collectors::ctf
