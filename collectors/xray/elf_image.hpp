// What symbolizing an XRay log needs from the instrumented executable, read with libelf: the
// `xray_instr_map` section, the link-time values of relocated words in it (RELATIVE relocations,
// and absolute ones against a symbol), the function symbols of .symtab, or of .dynsym when the
// binary is stripped, and what names a stripped binary's separate debug file (its build ID note
// and .gnu_debuglink section). All the ELF reading of symbolizing is here; `apcgate report`
// reads any image's symbols and load segments through it too (read_elf_symbols).
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

// Which of the binary's own tables its functions came from.
enum class SymbolTable : std::uint8_t { Symtab, Dynsym, None };

// A PT_LOAD program header: file bytes [offset, offset + file_size) load at `vaddr`.
struct LoadSegment {
    std::uint64_t offset = 0;
    std::uint64_t vaddr = 0;
    std::uint64_t file_size = 0;
};

struct ElfImage {
    bool is64 = true;
    wire::Endian endian = wire::Endian::Little;
    std::vector<std::uint8_t> instr_map;  // the section's bytes (a copy: the file is closed)
    std::uint64_t instr_map_address = 0;
    std::map<std::uint64_t, std::uint64_t> relocations;  // position -> value
    std::vector<ElfSymbol> functions;
    SymbolTable symbols = SymbolTable::None;
    std::vector<std::uint8_t> build_id;  // the NT_GNU_BUILD_ID note's bytes; empty: none
    std::string debuglink;               // .gnu_debuglink's file name; empty: none
    std::uint32_t debuglink_crc = 0;     // the CRC-32 of that file, as the link records it
    std::vector<LoadSegment> segments;   // PT_LOAD headers, in file order
};

// Reads `path`; fails when it is no ELF file or has no xray_instr_map section.
Result<ElfImage> read_elf_image(const std::filesystem::path& path);

// Reads `path` as read_elf_image does but any ELF file will do (an empty instr_map when it has
// no such section): the function symbols and load segments of a sampled image.
Result<ElfImage> read_elf_symbols(const std::filesystem::path& path);

// What a separate debug file (`objcopy --only-keep-debug`) gives: its build ID and the
// function symbols of its .symtab, at the addresses the stripped binary has.
struct DebugImage {
    std::vector<std::uint8_t> build_id;
    std::vector<ElfSymbol> functions;
};
// Fails when `path` is no ELF file.
Result<DebugImage> read_debug_image(const std::filesystem::path& path);

}  // namespace apcgate::collectors::xray
