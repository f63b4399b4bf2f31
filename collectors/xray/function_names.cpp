#include "collectors/xray/function_names.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <map>

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

Result<FunctionNames> FunctionNames::load(const std::filesystem::path& binary) {
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

    std::multimap<std::uint64_t, const ElfSymbol*> by_address;
    for (const auto& s : image->functions) by_address.emplace(s.address, &s);
    FunctionNames names;
    names.names_.reserve(addresses->size());
    for (const std::uint64_t a : *addresses) {
        const ElfSymbol* s = symbol_for(by_address, a);
        names.names_.push_back(s != nullptr ? demangle(s->name) : std::string());
    }
    return names;
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
