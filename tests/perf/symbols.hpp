// Symbol lookup for the tests: where a function lives in its ELF file, as a file-offset range
// (the same space Backtrace frame offsets are in), through the symbol table and the program
// headers, read with libelf.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace apcgate::collectors::perf::testing {

struct FileRange {
    std::uint64_t start = 0, end = 0;  // [start, end) file offsets
    [[nodiscard]] bool contains(std::int64_t off) const {
        return off >= 0 && static_cast<std::uint64_t>(off) >= start &&
               static_cast<std::uint64_t>(off) < end;
    }
};

std::optional<FileRange> function_file_range(const std::string& elf_path, const std::string& name);

}  // namespace apcgate::collectors::perf::testing
