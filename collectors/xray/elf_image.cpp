#include "collectors/xray/elf_image.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>

#include "protocol/wire/unique_fd.hpp"

namespace apcgate::collectors::xray {

namespace {

struct ElfCloser {
    void operator()(Elf* e) const { elf_end(e); }
};

// Relocation types whose value is the addend (RELATIVE) or symbol + addend (absolute word),
// for the machines XRay supports; 0 when the machine has none of that kind.
struct RelocTypes {
    std::uint32_t relative = 0;
    std::uint32_t absolute = 0;
};

RelocTypes reloc_types(std::uint16_t machine) {
    switch (machine) {
        case EM_X86_64:
            return {R_X86_64_RELATIVE, R_X86_64_64};
        case EM_AARCH64:
            return {R_AARCH64_RELATIVE, R_AARCH64_ABS64};
        case EM_386:
            return {R_386_RELATIVE, R_386_32};
        case EM_ARM:
            return {R_ARM_RELATIVE, R_ARM_ABS32};
        case EM_PPC64:
            return {R_PPC64_RELATIVE, R_PPC64_ADDR64};
        case EM_RISCV:
            return {R_RISCV_RELATIVE, R_RISCV_64};
        case EM_S390:
            return {R_390_RELATIVE, R_390_64};
        default:
            return {};
    }
}

Error elf_error(const std::filesystem::path& path, std::string what) {
    Error e = Error::at(std::move(what));
    e.input = path.string();
    return e;
}

std::optional<GElf_Sym> symbol_at(Elf* elf, std::size_t symtab_index, std::size_t n) {
    Elf_Scn* scn = elf_getscn(elf, symtab_index);
    Elf_Data* data = scn != nullptr ? elf_getdata(scn, nullptr) : nullptr;
    GElf_Sym sym;
    if (data == nullptr || gelf_getsym(data, static_cast<int>(n), &sym) == nullptr)
        return std::nullopt;
    return sym;
}

void read_relocations(Elf* elf, Elf_Scn* scn, const GElf_Shdr& sh, RelocTypes types,
                      ElfImage& img) {
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data == nullptr || sh.sh_entsize == 0 || sh.sh_type != SHT_RELA) return;
    const std::uint64_t lo = img.instr_map_address;
    const std::uint64_t hi = lo + img.instr_map.size();
    const std::size_t count = sh.sh_size / sh.sh_entsize;
    for (std::size_t i = 0; i < count; ++i) {
        GElf_Rela rela;
        if (gelf_getrela(data, static_cast<int>(i), &rela) == nullptr) break;
        if (rela.r_offset < lo || rela.r_offset >= hi) continue;
        const auto type = static_cast<std::uint32_t>(GELF_R_TYPE(rela.r_info));
        if (types.relative != 0 && type == types.relative) {
            img.relocations[rela.r_offset] = static_cast<std::uint64_t>(rela.r_addend);
        } else if (types.absolute != 0 && type == types.absolute) {
            if (auto sym = symbol_at(elf, sh.sh_link, GELF_R_SYM(rela.r_info)))
                img.relocations[rela.r_offset] =
                    sym->st_value + static_cast<std::uint64_t>(rela.r_addend);
        }
    }
}

void read_functions(Elf* elf, Elf_Scn* scn, const GElf_Shdr& sh, bool thumb, ElfImage& img) {
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data == nullptr || sh.sh_entsize == 0) return;
    const std::size_t count = sh.sh_size / sh.sh_entsize;
    for (std::size_t i = 0; i < count; ++i) {
        GElf_Sym sym;
        if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr) break;
        const int type = GELF_ST_TYPE(sym.st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
            sym.st_value == 0)
            continue;
        const char* name = elf_strptr(elf, sh.sh_link, sym.st_name);
        if (name == nullptr || *name == '\0') continue;
        ElfSymbol s;
        s.address = thumb ? (sym.st_value & ~std::uint64_t{1}) : sym.st_value;
        s.size = sym.st_size;
        s.name = name;
        s.global = GELF_ST_BIND(sym.st_info) == STB_GLOBAL;
        img.functions.push_back(std::move(s));
    }
}

}  // namespace

Result<ElfImage> read_elf_image(const std::filesystem::path& path) {
    if (elf_version(EV_CURRENT) == EV_NONE) return elf_error(path, "libelf is out of date");
    wire::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) return elf_error(path, std::string("cannot open: ") + std::strerror(errno));
    std::unique_ptr<Elf, ElfCloser> elf(elf_begin(fd.get(), ELF_C_READ, nullptr));
    GElf_Ehdr eh;
    if (!elf || elf_kind(elf.get()) != ELF_K_ELF || gelf_getehdr(elf.get(), &eh) == nullptr)
        return elf_error(path, "not an ELF file");
    ElfImage img;
    img.is64 = gelf_getclass(elf.get()) == ELFCLASS64;
    img.endian = eh.e_ident[EI_DATA] == ELFDATA2MSB ? wire::Endian::Big : wire::Endian::Little;
    std::size_t shstrndx = 0;
    if (elf_getshdrstrndx(elf.get(), &shstrndx) != 0)
        return elf_error(path, "no section name table");

    std::vector<std::pair<Elf_Scn*, GElf_Shdr>> relocs;
    std::optional<std::pair<Elf_Scn*, GElf_Shdr>> symtab;
    std::optional<std::pair<Elf_Scn*, GElf_Shdr>> dynsym;
    bool found = false;
    for (Elf_Scn* scn = elf_nextscn(elf.get(), nullptr); scn != nullptr;
         scn = elf_nextscn(elf.get(), scn)) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) == nullptr) continue;
        const char* name = elf_strptr(elf.get(), shstrndx, sh.sh_name);
        if (name != nullptr && std::strcmp(name, "xray_instr_map") == 0 &&
            sh.sh_type != SHT_NOBITS) {
            Elf_Data* d = elf_rawdata(scn, nullptr);
            if (d != nullptr && d->d_buf != nullptr) {
                const auto* bytes = static_cast<const std::uint8_t*>(d->d_buf);
                img.instr_map.assign(bytes, bytes + d->d_size);
            }
            img.instr_map_address = sh.sh_addr;
            found = true;
        }
        if (sh.sh_type == SHT_RELA) relocs.emplace_back(scn, sh);
        if (sh.sh_type == SHT_SYMTAB) symtab.emplace(scn, sh);
        if (sh.sh_type == SHT_DYNSYM) dynsym.emplace(scn, sh);
    }
    if (!found)
        return elf_error(path, "no xray_instr_map section: was it built with -fxray-instrument?");
    for (const auto& [scn, sh] : relocs)
        read_relocations(elf.get(), scn, sh, reloc_types(eh.e_machine), img);
    const bool thumb = eh.e_machine == EM_ARM;
    if (symtab) read_functions(elf.get(), symtab->first, symtab->second, thumb, img);
    if (img.functions.empty() && dynsym)
        read_functions(elf.get(), dynsym->first, dynsym->second, thumb, img);
    return img;
}

}  // namespace apcgate::collectors::xray
