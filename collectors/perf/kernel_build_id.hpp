// The running kernel's GNU build id, which a Perf-type capture carries (KERNEL_BUILD_ID) so a
// reader can match /proc/kallsyms and the kernel's samples to the right vmlinux. The kernel
// exports its ELF notes in /sys/kernel/notes: a sequence of Elf_Nhdr {u32 namesz, u32 descsz,
// u32 type}, each followed by its name and its descriptor, both padded to 4 bytes (elf(5),
// "Notes (Nhdr)"). The build id is the descriptor of the note named "GNU" with type
// NT_GNU_BUILD_ID (3).
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "protocol/wire/result.hpp"

namespace apcgate::collectors::perf {

// The build id in a notes blob; an empty vector when no note is a GNU build id; an error (with
// the offset) when a note runs past the end.
Result<std::vector<std::uint8_t>> gnu_build_id(std::span<const std::uint8_t> notes);

// The build id from <sys_root>/kernel/notes; an error when the file cannot be read or has none.
Result<std::vector<std::uint8_t>> kernel_build_id(const std::filesystem::path& sys_root);

}  // namespace apcgate::collectors::perf
