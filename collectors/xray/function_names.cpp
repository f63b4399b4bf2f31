#include "collectors/xray/function_names.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <map>

#include "collectors/xray/debug_file.hpp"
#include "collectors/xray/elf_image.hpp"
#include "collectors/xray/instr_map.hpp"

namespace apcgate::collectors::xray {

namespace {

// The best symbol for `address`: one starting there (global before local), else the one whose
// extent contains it.
const ElfSymbol* symbol_for(const std::multimap<std::uint64_t, const ElfSymbol*>& by_address,
                            std::uint64_t address) {
    const ElfSymbol* best = nullptr;
    for (auto [it, end] = by_address.equal_range(address); it != end; ++it) {
        if (best == nullptr || (it->second->global && !best->global)) best = it->second;
    }
    if (best != nullptr) return best;
    auto it = by_address.upper_bound(address);
    if (it == by_address.begin()) return nullptr;
    --it;
    const ElfSymbol* s = it->second;
    return address - s->address < s->size ? s : nullptr;
}

}  // namespace

std::string FunctionNames::demangle(const std::string& mangled) {
    // Only symbol names: __cxa_demangle also takes type names, and a C function "f" is no float.
    if (mangled.rfind("_Z", 0) != 0) return mangled;
    int status = 0;
    char* out = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
    if (status != 0 || out == nullptr) {
        std::free(out);
        return mangled;
    }
    std::string s(out);
    std::free(out);
    return s;
}

Result<FunctionNames> FunctionNames::load(const std::filesystem::path& binary,
                                          std::span<const std::filesystem::path> debug_dirs) {
    auto image = read_elf_image(binary);
    if (!image) return std::move(image).take_error().while_("reading the instrumented binary");
    InstrMapSection section;
    section.bytes = image->instr_map;
    section.address = image->instr_map_address;
    section.is64 = image->is64;
    section.endian = image->endian;
    section.relocations = &image->relocations;
    auto addresses = function_addresses(section, binary.string());
    if (!addresses)
        return std::move(addresses).take_error().while_("reading the instrumentation map");

    FunctionNames names;
    Origin& origin = names.origin_;
    origin.table = image->symbols;
    origin.build_id = build_id_hex(image->build_id);
    const std::vector<ElfSymbol>* functions = &image->functions;
    DebugFileSearch debug;
    if (image->symbols != SymbolTable::Symtab) {
        debug = find_debug_file(binary, *image, debug_dirs);
        origin.debug_tried = debug.tried;
        origin.debug_file = debug.found;
        if (debug.found) functions = &debug.functions;
    }
    std::multimap<std::uint64_t, const ElfSymbol*> by_address;
    for (const auto& s : *functions) by_address.emplace(s.address, &s);
    names.names_.reserve(addresses->size());
    for (const std::uint64_t a : *addresses) {
        const ElfSymbol* s = symbol_for(by_address, a);
        names.names_.push_back(s != nullptr ? demangle(s->name) : std::string());
        if (s == nullptr) ++origin.unnamed;
    }
    return names;
}

std::string FunctionNames::origin_note(const std::filesystem::path& binary) const {
    const std::string bin = binary.string();
    const std::string counts = std::to_string(origin_.unnamed) + " of " +
                               std::to_string(names_.size()) + " instrumented functions";
    if (origin_.table == SymbolTable::Symtab) {
        if (origin_.unnamed == 0) return {};
        return counts + " of " + bin + " have no symbol and show as fn#ID";
    }
    if (origin_.debug_file) {
        std::string s = "names of " + bin + " (stripped) are from its debug file " +
                        origin_.debug_file->string();
        if (origin_.unnamed != 0) s += "; " + counts + " have no symbol there and show as fn#ID";
        return s;
    }
    if (origin_.unnamed == 0) return {};  // .dynsym named them all
    std::string s = bin + " is stripped (no .symtab) and no debug file of it was found (";
    s += origin_.build_id.empty() ? "no build ID" : "build ID " + origin_.build_id;
    if (!origin_.debug_tried.empty()) {
        s += "; looked at";
        for (std::size_t i = 0; i < origin_.debug_tried.size(); ++i)
            s += (i == 0 ? " " : ", ") + origin_.debug_tried[i].string();
    }
    s += "): " + counts + " show as fn#ID";
    if (origin_.table == SymbolTable::Dynsym) s += " (the others are named from .dynsym)";
    s += ". Pass the unstripped executable as --binary, or --debug-dir DIR";
    if (!origin_.build_id.empty())
        s += " with DIR/.build-id/" + origin_.build_id.substr(0, 2) + "/" +
             origin_.build_id.substr(2) + ".debug";
    return s;
}

std::string_view FunctionNames::label(std::uint32_t function) {
    if (!names_.empty() && function > names_.size() && outside_.calls++ == 0)
        outside_.first_id = function;
    // Ids without a name are cached too: ids are small and dense in real logs, and a hostile
    // log cannot push the cache past its bounds.
    if (function < kMaxCachedUnnamed) {
        if (function >= unnamed_.size()) unnamed_.resize(function + 1);
        std::string& label = unnamed_[function];
        if (label.empty()) label = "fn#" + std::to_string(function);
        return label;
    }
    std::string label = "fn#" + std::to_string(function);
    scratch_ = std::move(label);
    return scratch_;
}

}  // namespace apcgate::collectors::xray
