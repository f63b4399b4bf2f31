// Function ids to names. With the instrumented executable (--binary), each id's function
// address comes from its instrumentation map and the name from the symbol at that address
// (a containing symbol when none starts there), demangled like llvm-xray -symbolize shows it;
// without one, or for an id the map does not have, the name is "fn#ID". The symbols are the
// binary's .symtab; of a stripped binary, its separate debug file's (debug_file.hpp), else its
// .dynsym's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "collectors/xray/elf_image.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::xray {

class FunctionNames {
  public:
    FunctionNames() = default;
    // `debug_dirs`: where a stripped binary's debug file may be (see debug_file.hpp).
    static Result<FunctionNames> load(const std::filesystem::path& binary,
                                      std::span<const std::filesystem::path> debug_dirs = {});

    // Where the names came from.
    struct Origin {
        SymbolTable table = SymbolTable::None;            // the binary's own symbols
        std::optional<std::filesystem::path> debug_file;  // the names' source, when found
        std::vector<std::filesystem::path> debug_tried;   // looked at for a stripped binary
        std::string build_id;                             // hex; "" when the binary has none
        std::size_t unnamed = 0;                          // ids of the map without a symbol
    };
    [[nodiscard]] const Origin& origin() const { return origin_; }
    // What a user should know about the names of `binary`'s functions: where a stripped
    // binary's names came from and how many functions have none; "" when .symtab named all.
    [[nodiscard]] std::string origin_note(const std::filesystem::path& binary) const;

    // Valid until the next call for an id without a name.
    std::string_view name(std::uint32_t function) {
        // Inline for the named ids (every call's entry asks); the rest makes labels.
        if (function >= 1 && function <= names_.size() && !names_[function - 1].empty())
            return names_[function - 1];
        return label(function);
    }
    [[nodiscard]] std::size_t size() const { return names_.size(); }  // ids the map has

    // Names asked for ids past the end of the binary's map (counted only with a map): the
    // runtime numbers a binary's instrumented functions 1..N, so such an id means the log was
    // written by another program or build than --binary, and every name may be wrong.
    struct OutsideMap {
        std::uint64_t calls = 0;
        std::uint32_t first_id = 0;
    };
    [[nodiscard]] const OutsideMap& outside_map() const { return outside_; }
    void reset_outside_map() { outside_ = {}; }

    // Demangles an Itanium C++ name; anything else comes back as it is.
    static std::string demangle(const std::string& mangled);

  private:
    std::string_view label(std::uint32_t function);  // "fn#ID"

    static constexpr std::uint32_t kMaxCachedUnnamed = 65536;

    std::vector<std::string> names_;    // element 0 is id 1; "" when no symbol matched
    std::vector<std::string> unnamed_;  // "fn#ID" labels made so far, by id
    std::string scratch_;
    OutsideMap outside_;
    Origin origin_;
};

}  // namespace apcgate::collectors::xray
