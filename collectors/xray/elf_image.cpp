#include "collectors/xray/elf_image.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
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

Error elf_error(ErrorKind kind, const std::filesystem::path& path, std::string what) {
    Error e = Error::at(kind, std::move(what));
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

// The relocated words within [lo, lo + size), the instrumentation map.
void read_relocations(Elf* elf, Elf_Scn* scn, const GElf_Shdr& sh, RelocTypes types,
                      std::uint64_t lo, std::uint64_t size,
                      std::map<std::uint64_t, std::uint64_t>& relocations) {
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data == nullptr || sh.sh_entsize == 0 || sh.sh_type != SHT_RELA) return;
    const std::uint64_t hi = lo + size;
    const std::size_t count = sh.sh_size / sh.sh_entsize;
    for (std::size_t i = 0; i < count; ++i) {
        GElf_Rela rela;
        if (gelf_getrela(data, static_cast<int>(i), &rela) == nullptr) break;
        if (rela.r_offset < lo || rela.r_offset >= hi) continue;
        const auto type = static_cast<std::uint32_t>(GELF_R_TYPE(rela.r_info));
        if (types.relative != 0 && type == types.relative) {
            relocations[rela.r_offset] = static_cast<std::uint64_t>(rela.r_addend);
        } else if (types.absolute != 0 && type == types.absolute) {
            if (auto sym = symbol_at(elf, sh.sh_link, GELF_R_SYM(rela.r_info)))
                relocations[rela.r_offset] =
                    sym->st_value + static_cast<std::uint64_t>(rela.r_addend);
        }
    }
}

void read_functions(Elf* elf, Elf_Scn* scn, const GElf_Shdr& sh, bool thumb,
                    std::vector<ElfSymbol>& functions) {
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
        functions.push_back(std::move(s));
    }
}

// An open ELF file: the descriptor lives as long as libelf reads through it.
struct OpenElf {
    wire::UniqueFd fd;
    std::unique_ptr<Elf, ElfCloser> elf;
    GElf_Ehdr eh{};
    std::size_t shstrndx = 0;
};

Result<OpenElf> open_elf(const std::filesystem::path& path) {
    if (elf_version(EV_CURRENT) == EV_NONE)
        return elf_error(ErrorKind::Unsupported, path, "libelf is out of date");
    OpenElf o;
    o.fd = wire::UniqueFd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!o.fd.valid())
        return elf_error(ErrorKind::Io, path, std::string("cannot open: ") + std::strerror(errno));
    o.elf.reset(elf_begin(o.fd.get(), ELF_C_READ, nullptr));
    if (!o.elf || elf_kind(o.elf.get()) != ELF_K_ELF || gelf_getehdr(o.elf.get(), &o.eh) == nullptr)
        return elf_error(ErrorKind::Malformed, path, "not an ELF file");
    if (elf_getshdrstrndx(o.elf.get(), &o.shstrndx) != 0)
        return elf_error(ErrorKind::Malformed, path, "no section name table");
    return o;
}

// The GNU build ID note's bytes, when `scn` (a note section) holds one.
std::vector<std::uint8_t> build_id_in(Elf_Scn* scn) {
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data == nullptr || data->d_buf == nullptr) return {};
    const auto* bytes = static_cast<const std::uint8_t*>(data->d_buf);
    GElf_Nhdr note;
    std::size_t name_at = 0;
    std::size_t desc_at = 0;
    for (std::size_t at = 0; (at = gelf_getnote(data, at, &note, &name_at, &desc_at)) != 0;) {
        if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
            std::memcmp(bytes + name_at, "GNU", 4) == 0)
            return {bytes + desc_at, bytes + desc_at + note.n_descsz};
    }
    return {};
}

// .gnu_debuglink: the debug file's name, NUL-terminated and padded to 4 bytes, then the CRC-32
// of its contents as a word in the ELF's byte order (GDB manual, "Debugging Information in
// Separate Files").
void read_debuglink(Elf_Scn* scn, wire::Endian endian, ElfImage& img) {
    Elf_Data* data = elf_rawdata(scn, nullptr);
    if (data == nullptr || data->d_buf == nullptr) return;
    wire::ByteReader r({static_cast<const std::uint8_t*>(data->d_buf), data->d_size}, endian);
    const auto rest = r.rest();
    const auto nul = std::find(rest.begin(), rest.end(), std::uint8_t{0});
    if (nul == rest.end()) return;
    const std::size_t name_size = static_cast<std::size_t>(nul - rest.begin());
    std::string name(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(name_size));
    r.skip((name_size + 1 + 3) & ~std::size_t{3}, "debuglink name");
    const std::uint32_t crc = r.u32("debuglink crc");
    if (!r.ok() || name.empty() || name.find('/') != std::string::npos) return;
    img.debuglink = std::move(name);
    img.debuglink_crc = crc;
}

bool section_named(const OpenElf& o, const GElf_Shdr& sh, const char* wanted) {
    const char* name = elf_strptr(o.elf.get(), o.shstrndx, sh.sh_name);
    return name != nullptr && std::strcmp(name, wanted) == 0;
}

}  // namespace

namespace {

Result<ElfImage> read_elf(const std::filesystem::path& path, bool need_instr_map) {
    auto opened = open_elf(path);
    if (!opened) return std::move(opened).take_error();
    const OpenElf& o = *opened;
    Elf* const elf = o.elf.get();
    ElfImage img;
    img.is64 = gelf_getclass(elf) == ELFCLASS64;
    img.endian = o.eh.e_ident[EI_DATA] == ELFDATA2MSB ? wire::Endian::Big : wire::Endian::Little;

    std::vector<std::pair<Elf_Scn*, GElf_Shdr>> relocs;
    std::optional<std::pair<Elf_Scn*, GElf_Shdr>> symtab;
    std::optional<std::pair<Elf_Scn*, GElf_Shdr>> dynsym;
    bool found = false;
    for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn != nullptr; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) == nullptr) continue;
        if (section_named(o, sh, "xray_instr_map") && sh.sh_type != SHT_NOBITS) {
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
        if (sh.sh_type == SHT_NOTE && img.build_id.empty()) img.build_id = build_id_in(scn);
        if (section_named(o, sh, ".gnu_debuglink")) read_debuglink(scn, img.endian, img);
    }
    std::size_t headers = 0;
    if (elf_getphdrnum(elf, &headers) == 0) {
        for (std::size_t i = 0; i < headers; ++i) {
            GElf_Phdr ph;
            if (gelf_getphdr(elf, static_cast<int>(i), &ph) == nullptr || ph.p_type != PT_LOAD)
                continue;
            img.segments.push_back({ph.p_offset, ph.p_vaddr, ph.p_filesz});
        }
    }
    if (!found && need_instr_map)
        return elf_error(ErrorKind::Unsupported, path,
                         "no xray_instr_map section: was it built with -fxray-instrument?");
    for (const auto& [scn, sh] : relocs)
        read_relocations(elf, scn, sh, reloc_types(o.eh.e_machine), img.instr_map_address,
                         img.instr_map.size(), img.relocations);
    const bool thumb = o.eh.e_machine == EM_ARM;
    if (symtab) {
        read_functions(elf, symtab->first, symtab->second, thumb, img.functions);
        img.symbols = SymbolTable::Symtab;
    }
    if (img.functions.empty() && dynsym) {
        read_functions(elf, dynsym->first, dynsym->second, thumb, img.functions);
        img.symbols = img.functions.empty() ? SymbolTable::None : SymbolTable::Dynsym;
    }
    return img;
}

}  // namespace

Result<ElfImage> read_elf_image(const std::filesystem::path& path) {
    return read_elf(path, true);
}

Result<ElfImage> read_elf_symbols(const std::filesystem::path& path) {
    return read_elf(path, false);
}

Result<DebugImage> read_debug_image(const std::filesystem::path& path) {
    auto opened = open_elf(path);
    if (!opened) return std::move(opened).take_error();
    Elf* const elf = opened->elf.get();
    DebugImage img;
    const bool thumb = opened->eh.e_machine == EM_ARM;
    for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn != nullptr; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) == nullptr) continue;
        if (sh.sh_type == SHT_SYMTAB) read_functions(elf, scn, sh, thumb, img.functions);
        if (sh.sh_type == SHT_NOTE && img.build_id.empty()) img.build_id = build_id_in(scn);
    }
    return img;
}

}  // namespace apcgate::collectors::xray
