#include "symbols.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cstring>

namespace apcgate::collectors::perf::testing {

std::optional<FileRange> function_file_range(const std::string& elf_path, const std::string& name) {
    if (elf_version(EV_CURRENT) == EV_NONE) return std::nullopt;
    const int fd = ::open(elf_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
    std::optional<FileRange> out;
    std::optional<GElf_Sym> found;
    for (Elf_Scn* scn = nullptr;
         elf != nullptr && !found && (scn = elf_nextscn(elf, scn)) != nullptr;) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) == nullptr ||
            (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
            continue;
        Elf_Data* data = elf_getdata(scn, nullptr);
        const std::size_t n = sh.sh_entsize != 0 ? sh.sh_size / sh.sh_entsize : 0;
        for (std::size_t i = 0; data != nullptr && i < n; ++i) {
            GElf_Sym sym;
            if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr) continue;
            const char* s = elf_strptr(elf, sh.sh_link, sym.st_name);
            if (s != nullptr && name == s && GELF_ST_TYPE(sym.st_info) == STT_FUNC) {
                found = sym;
                break;
            }
        }
    }
    std::size_t phnum = 0;
    if (found && elf_getphdrnum(elf, &phnum) == 0) {
        for (std::size_t i = 0; i < phnum; ++i) {
            GElf_Phdr ph;
            if (gelf_getphdr(elf, static_cast<int>(i), &ph) == nullptr || ph.p_type != PT_LOAD)
                continue;
            if (found->st_value < ph.p_vaddr || found->st_value >= ph.p_vaddr + ph.p_filesz)
                continue;
            const std::uint64_t off = found->st_value - ph.p_vaddr + ph.p_offset;
            out = FileRange{off, off + std::max<std::uint64_t>(found->st_size, 1)};
            break;
        }
    }
    if (elf != nullptr) elf_end(elf);
    ::close(fd);
    return out;
}

}  // namespace apcgate::collectors::perf::testing
