// What symbolizing an XRay log needs from the instrumented executable, read with libelf: the
// `xray_instr_map` section, the link-time values of relocated words in it (RELATIVE relocations,
// and absolute ones against a symbol) and the function symbols of .symtab, or of .dynsym when
// the binary is stripped. All the file I/O of symbolizing is here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "protocol/wire/byte_reader.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::xray {

struct ElfSymbol {
    std::uint64_t address = 0;
    std::uint64_t size = 0;
    std::string name;  // as in the string table (mangled)
    bool global = false;
};

struct ElfImage {
    bool is64 = true;
    wire::Endian endian = wire::Endian::Little;
    std::vector<std::uint8_t> instr_map;  // the section's bytes (a copy: the file is closed)
    std::uint64_t instr_map_address = 0;
    std::map<std::uint64_t, std::uint64_t> relocations;  // position -> value
    std::vector<ElfSymbol> functions;
};

// Reads `path`; fails when it is no ELF file or has no xray_instr_map section.
Result<ElfImage> read_elf_image(const std::filesystem::path& path);

}  // namespace apcgate::collectors::xray
