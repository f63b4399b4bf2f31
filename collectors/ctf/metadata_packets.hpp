// Packetised CTF metadata (CTF 1.8 section 7.1; the RFC's section 7 "Metadata" sketches it): the
// `metadata` file is a sequence of packets, each
//   header := magic:u32 (0x75D11D57)  uuid:u8[16]  checksum:u32
//             content_size:u32 (bits)  packet_size:u32 (bits)
//             compression_scheme:u8  encryption_scheme:u8  checksum_scheme:u8
//             major:u8  minor:u8                                      (37 bytes)
//   packet := header  TSDL text up to content_size  padding up to packet_size
// in the byte order the magic reads in. libbabeltrace2 parses it, but 2.0 loops forever on a
// packet whose content_size is smaller than its header, so every packet's sizes are checked
// here first and a bad one is reported (offset, field) instead.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>

#include "protocol/wire/result.hpp"

namespace apcgate::collectors::ctf {

inline constexpr std::size_t kMetadataHeaderBytes = 37;
inline constexpr std::uint64_t kMaxMetadataBytes = 64ULL << 20;

// OK for TSDL text (not packetised) and for packets whose sizes are consistent.
Status check_metadata_packets(std::span<const std::uint8_t> metadata);
// The same for a `metadata` file (an error names the file).
Status check_metadata_file(const std::filesystem::path& metadata);

}  // namespace apcgate::collectors::ctf
