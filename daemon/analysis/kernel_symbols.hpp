// Kernel addresses to function names, from the /proc/kallsyms text a Perf-framing capture
// carries (PERF_ATTRS KALLSYMS). Grammar (one symbol a line; the kernel's kallsyms.c, s_show):
//
//   line   := ADDRESS " " TYPE " " NAME ["\t[" MODULE "]"] "\n"
//   ADDRESS hex; TYPE one letter (t/T text, w/W weak, others data); NAME up to KSYM_NAME_LEN
//
// kallsyms gives no sizes, so a symbol covers the addresses up to the next one; every symbol
// (data too) is kept as a boundary, and only text and weak ones name an address. At one address
// a global text symbol wins over a local one, then the first listed. Lines that break the
// grammar, names past kMaxNameBytes and symbols past the Limits (a count, and bytes of names)
// are skipped and counted by reason; memory is bounded by the Limits, whatever the text. A
// kernel that hides its addresses (kptr_restrict) lists them all as 0: nothing resolves, and
// hidden() says so.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace apcgate::daemon::analysis {

struct KallsymsSkipped {
    std::uint64_t malformed = 0;      // no hex address, no type letter or no name
    std::uint64_t name_too_long = 0;  // a name past kMaxNameBytes
    std::uint64_t past_limit = 0;     // symbols past the Limits
    [[nodiscard]] std::uint64_t total() const { return malformed + name_too_long + past_limit; }
};

struct KallsymsLimits {
    // Kernels with many modules list a few hundred thousand symbols.
    std::size_t symbols = 1u << 21;
    // Their names take a few MiB; this bounds what a hostile text can make us keep.
    std::size_t name_bytes = 64u << 20;
};

class KernelSymbols {
  public:
    // The kernel's KSYM_NAME_LEN is 512 bytes with its NUL; a module name adds a few.
    static constexpr std::size_t kMaxNameBytes = 512;
    using Limits = KallsymsLimits;

    explicit KernelSymbols(Limits limits = {}) : limits_(limits) {}

    // Parses a whole kallsyms text; another call adds to what is there.
    void parse(std::string_view text);

    // "name" or "name [module]" of the function holding `address`; nullopt when no function
    // symbol covers it.
    [[nodiscard]] std::optional<std::string> function_at(std::uint64_t address);

    [[nodiscard]] std::size_t functions() const { return functions_; }
    [[nodiscard]] bool empty() const { return symbols_.empty(); }
    [[nodiscard]] bool hidden() const { return !symbols_.empty() && nonzero_ == 0; }
    [[nodiscard]] const KallsymsSkipped& skipped() const { return skipped_; }
    [[nodiscard]] const Limits& limits() const { return limits_; }

  private:
    struct Symbol {
        std::uint64_t address = 0;
        std::uint32_t name = 0;      // offset into names_
        std::uint16_t name_len = 0;  // name, then " [module]" when there is one
        std::uint8_t rank = 0;       // 0 data, 1 local/weak text, 2 global text
        std::uint32_t order = 0;     // line order, for ties
    };
    void sort_once();

    Limits limits_;
    std::vector<Symbol> symbols_;
    std::string names_;
    std::size_t functions_ = 0;
    std::uint64_t nonzero_ = 0;
    bool sorted_ = true;
    KallsymsSkipped skipped_;
};

}  // namespace apcgate::daemon::analysis
