// Interned names with a bound: the analysis keeps one entry per distinct name, and a hostile or
// pathological capture (a text that differs in every annotation) must not grow it without end.
// Past `limit` names, new names map to one overflow entry and are counted, so the report says
// how many were folded together instead of dropping them silently.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace apcgate::daemon::analysis {

struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

class NameTable {
  public:
    explicit NameTable(std::size_t limit, std::string overflow_name)
        : limit_(limit), overflow_name_(std::move(overflow_name)) {}

    // The id of `name`; the overflow id once the table is full.
    std::uint32_t id(std::string_view name) {
        if (auto it = ids_.find(name); it != ids_.end()) return it->second;
        if (names_.size() >= limit_) {
            ++overflowed_;
            return overflow_id();
        }
        const auto id = static_cast<std::uint32_t>(names_.size());
        names_.emplace_back(name);
        ids_.emplace(names_.back(), id);
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
    std::size_t limit_;
    std::string overflow_name_;
    std::vector<std::string> names_;
    std::unordered_map<std::string, std::uint32_t, NameHash, std::equal_to<>> ids_;
    std::uint64_t overflowed_ = 0;
};

}  // namespace apcgate::daemon::analysis
