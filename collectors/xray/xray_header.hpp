// The 32-byte file header every XRay log starts with (FDR spec "Header Section"; the same header
// opens basic-mode logs, compiler-rt xray_records.h XRayFileHeader):
//
//   offset size field
//        0    2 version          FDR 1..5, basic 1..3
//        2    2 type             0 = basic ("naive") mode, 1 = FDR
//        4    4 bitfield         bit 0 constant_tsc, bit 1 nonstop_tsc (bit 7/6 of byte 4 on a
//                                big-endian writer: bitfields are laid out from the MSB there)
//        8    8 cycle_frequency  TSC ticks per second
//       16    8 buffer_size      FDR: the per-thread buffer size (v1 buffers are this long)
//       24    8 reserved
//
// The byte order is the writer's and is not marked: like llvm-xray we try little-endian first
// and take big-endian when that gives a version/type pair no writer produces.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "protocol/wire/byte_reader.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::xray {

inline constexpr std::size_t kFileHeaderSize = 32;

enum class LogType : std::uint16_t { Basic = 0, Fdr = 1 };

struct FileHeader {
    std::uint16_t version = 0;
    LogType type = LogType::Fdr;
    wire::Endian endian = wire::Endian::Little;
    bool constant_tsc = false;
    bool nonstop_tsc = false;
    std::uint64_t cycle_frequency = 0;  // Hz; 0 when the writer could not tell
    std::uint64_t buffer_size = 0;      // FDR only
};

// True when the version and type are a pair some XRay writer produces.
bool known_version(LogType type, std::uint16_t version);

// Reads and validates the header; errors name the offset and field ("record 'FileHeader'").
Result<FileHeader> read_file_header(std::span<const std::uint8_t> data, const std::string& input);

// A short label such as "FDR v5 little-endian", for messages.
std::string describe(const FileHeader& h);

}  // namespace apcgate::collectors::xray
