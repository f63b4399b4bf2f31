#include "daemon/analysis/kernel_symbols.hpp"

#include <algorithm>
#include <charconv>

namespace apcgate::daemon::analysis {

namespace {

std::optional<std::uint64_t> hex_address(std::string_view s) {
    if (s.empty() || s.size() > 16) return std::nullopt;
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

std::uint8_t rank_of(char type) {
    switch (type) {
        case 'T':
            return 2;
        case 't':
        case 'W':
        case 'w':
            return 1;
        default:
            return 0;
    }
}

}  // namespace

void KernelSymbols::parse(std::string_view text) {
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        if (line.empty()) continue;
        // ADDRESS " " TYPE " " NAME ["\t[" MODULE "]"]
        const std::size_t sp = line.find(' ');
        const auto address = hex_address(line.substr(0, std::min(sp, line.size())));
        if (!address || sp == std::string_view::npos || line.size() < sp + 4 ||
            line[sp + 2] != ' ' || line[sp + 1] == ' ' || line[sp + 1] == '\t') {
            ++skipped_.malformed;
            continue;
        }
        const char type = line[sp + 1];
        std::string_view name = line.substr(sp + 3);
        std::string_view module;
        if (const std::size_t tab = name.find('\t'); tab != std::string_view::npos) {
            module = name.substr(tab + 1);
            name = name.substr(0, tab);
            if (module.size() < 3 || module.front() != '[' || module.back() != ']') {
                ++skipped_.malformed;
                continue;
            }
        }
        if (name.empty() || name.find(' ') != std::string_view::npos) {
            ++skipped_.malformed;
            continue;
        }
        if (name.size() + module.size() > kMaxNameBytes) {
            ++skipped_.name_too_long;
            continue;
        }
        const std::uint8_t rank = rank_of(type);
        // Data symbols are only boundaries: no name kept.
        const std::size_t bytes =
            rank == 0 ? 0 : name.size() + (module.empty() ? 0 : module.size() + 1);
        if (symbols_.size() >= limits_.symbols || names_.size() + bytes > limits_.name_bytes) {
            ++skipped_.past_limit;
            continue;
        }
        Symbol s;
        s.address = *address;
        s.rank = rank;
        s.order = static_cast<std::uint32_t>(symbols_.size());
        s.name = static_cast<std::uint32_t>(names_.size());
        if (rank != 0) {
            names_.append(name);
            if (!module.empty()) names_.append(" ").append(module);
            ++functions_;
        }
        s.name_len = static_cast<std::uint16_t>(names_.size() - s.name);
        if (s.address != 0) ++nonzero_;
        symbols_.push_back(s);
    }
    // Aliases at one address: the best name first (see the header), so a lookup takes it.
    sorted_ = false;
}

void KernelSymbols::sort_once() {
    if (sorted_) return;
    std::sort(symbols_.begin(), symbols_.end(), [](const Symbol& a, const Symbol& b) {
        if (a.address != b.address) return a.address < b.address;
        if (a.rank != b.rank) return a.rank > b.rank;
        return a.order < b.order;
    });
    sorted_ = true;
}

std::optional<std::string> KernelSymbols::function_at(std::uint64_t address) {
    if (hidden() || symbols_.empty()) return std::nullopt;
    sort_once();
    // The last symbol at or below the address, then the best of its aliases.
    auto it = std::upper_bound(symbols_.begin(), symbols_.end(), address,
                               [](std::uint64_t a, const Symbol& s) { return a < s.address; });
    if (it == symbols_.begin()) return std::nullopt;
    --it;
    const std::uint64_t at = it->address;
    while (it != symbols_.begin() && std::prev(it)->address == at) --it;
    if (it->rank == 0) return std::nullopt;
    return names_.substr(it->name, it->name_len);
}

}  // namespace apcgate::daemon::analysis
