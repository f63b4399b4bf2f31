// The symbols of a stripped executable, from the separate debug file its build kept
// (`objcopy --only-keep-debug`, Debian's -dbgsym packages, Yocto's -dbg ones): the binary on a
// board is usually stripped, and its .dynsym names few functions or none.
//
// Found the way gdb finds it (GDB manual, "Debugging Information in Separate Files"):
//   1. by build ID, for each debug directory D:   D/.build-id/NN/NNNN….debug
//   2. by .gnu_debuglink name L, beside it:       BINDIR/L, BINDIR/.debug/L,
//      and for each debug directory D:            D/BINDIR/L          (BINDIR absolute)
// A candidate by build ID must carry the binary's build ID; one by debuglink must have the CRC-32
// the link records (and the binary's build ID, when both have one). The debug directories are a
// parameter (`--debug-dir`; /usr/lib/debug by default) so tests use a tree of their own.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "collectors/xray/elf_image.hpp"

namespace apcgate::collectors::xray {

struct DebugFileSearch {
    std::vector<std::filesystem::path> tried;  // the candidates looked at, in order
    std::optional<std::filesystem::path> found;
    std::vector<ElfSymbol> functions;  // the found file's .symtab functions
};

// Looks for the debug file of `binary` (already read into `image`).
DebugFileSearch find_debug_file(const std::filesystem::path& binary, const ElfImage& image,
                                std::span<const std::filesystem::path> debug_dirs);

// The build ID as the .build-id directory spells it: lowercase hex.
std::string build_id_hex(std::span<const std::uint8_t> id);

}  // namespace apcgate::collectors::xray
