// Interned names with a bound: the analysis keeps one entry per distinct name, and a hostile or
// pathological capture (a text that differs in every annotation) must not grow it without end.
// Past `limit` names, new names map to one overflow entry and are counted, so the report says
// how many were folded together instead of dropping them silently.
//
// A report asks for a name's id once per span or instant it reads, millions of times per
// capture, so the index is an open-addressing table of (hash, id) pairs in one array: a lookup
// reads one slot, and a name is compared only when its 32-bit hash matches. A node-based map
// chased a pointer per lookup and was most of the span statistics' time.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace apcgate::daemon::analysis {

// A hash for short names (function names, annotation texts): eight bytes at a time, mixed with
// one multiplication each; not for hostile keys' worst case, which only slows a lookup down.
inline std::uint64_t name_hash(std::string_view s) {
    constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
    std::uint64_t h = s.size() * kMul;
    const char* p = s.data();
    std::size_t n = s.size();
    for (; n >= 8; n -= 8, p += 8) {
        std::uint64_t w = 0;
        std::memcpy(&w, p, 8);
        h = (h ^ w) * kMul;
        h ^= h >> 29;
    }
    if (n > 0) {
        std::uint64_t w = 0;
        std::memcpy(&w, p, n);
        h = (h ^ w) * kMul;
        h ^= h >> 29;
    }
    h *= kMul;
    return h ^ (h >> 32);
}

class NameTable {
  public:
    explicit NameTable(std::size_t limit, std::string overflow_name)
        : limit_(limit), overflow_name_(std::move(overflow_name)) {}

    // The id of `name`; the overflow id once the table is full.
    std::uint32_t id(std::string_view name) {
        const std::uint64_t h = name_hash(name);
        const auto tag = static_cast<std::uint32_t>(h);
        if (!slots_.empty()) {
            for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
                const Slot s = slots_[i];
                if (s.id_plus_one == 0) break;
                if (s.hash == tag && names_[s.id_plus_one - 1] == name) return s.id_plus_one - 1;
            }
        }
        if (names_.size() >= limit_) {
            ++overflowed_;
            return overflow_id();
        }
        const auto id = static_cast<std::uint32_t>(names_.size());
        names_.emplace_back(name);
        // At most half full, so a probe run stays short.
        if (2 * names_.size() > slots_.size()) {
            grow();
        } else {
            insert(tag, h, id);
        }
        return id;
    }
    [[nodiscard]] const std::string& name(std::uint32_t id) const {
        return id < names_.size() ? names_[id] : overflow_name_;
    }
    [[nodiscard]] std::size_t size() const { return names_.size(); }
    // Uses of names that did not fit (each folded into the overflow entry).
    [[nodiscard]] std::uint64_t overflowed() const { return overflowed_; }
    [[nodiscard]] std::uint32_t overflow_id() const { return static_cast<std::uint32_t>(limit_); }

  private:
    struct Slot {
        std::uint32_t hash = 0;         // the low 32 bits of name_hash
        std::uint32_t id_plus_one = 0;  // 0: empty
    };
    void insert(std::uint32_t tag, std::uint64_t h, std::uint32_t id) {
        std::size_t i = h & mask_;
        while (slots_[i].id_plus_one != 0) i = (i + 1) & mask_;
        slots_[i] = {tag, id + 1};
    }
    // Rebuilds the index at twice the size (with every name so far, the newest included).
    void grow() {
        const std::size_t size = slots_.empty() ? 64 : 2 * slots_.size();
        slots_.assign(size, Slot{});
        mask_ = size - 1;
        for (std::uint32_t id = 0; id < names_.size(); ++id) {
            const std::uint64_t h = name_hash(names_[id]);
            insert(static_cast<std::uint32_t>(h), h, id);
        }
    }

    std::size_t limit_;
    std::string overflow_name_;
    std::vector<std::string> names_;
    std::vector<Slot> slots_;  // a power of two in size
    std::size_t mask_ = 0;
    std::uint64_t overflowed_ = 0;
};

}  // namespace apcgate::daemon::analysis
