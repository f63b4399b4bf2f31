// The instrumentation map clang writes into every -fxray-instrument binary, section
// `xray_instr_map` (LLVM XRay InstrumentationMap; one sled per patchable point):
//
//   64-bit ELF, 32 bytes:  u64 address, u64 function, u8 kind, u8 always_instrument,
//                          u8 version, 13 bytes padding
//   32-bit ELF, 16 bytes:  u32 address, u32 function, u8 kind, u8 always_instrument,
//                          u8 version, 1 byte padding
//
// From sled version 2 on, `address` and `function` are relative to the field's own position
// (address: the sled's start, function: its `function` field); before, they are absolute, or 0
// with a relocation in a position-independent binary. Function ids are what the runtime gives:
// 1 for the first sled's function, +1 each time the function changes from one sled to the next.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "protocol/wire/byte_reader.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::xray {

struct InstrMapSection {
    std::span<const std::uint8_t> bytes;
    std::uint64_t address = 0;  // the section's virtual address
    bool is64 = true;
    wire::Endian endian = wire::Endian::Little;
    // Link-time values of relocated words (position -> value), for sleds before version 2.
    const std::map<std::uint64_t, std::uint64_t>* relocations = nullptr;
};

// The function address of each function id: element 0 is id 1.
Result<std::vector<std::uint64_t>> function_addresses(const InstrMapSection& section,
                                                      const std::string& input);

}  // namespace apcgate::collectors::xray
