// The state one trace provider's records are read against (spec "Provider section metadata":
// a reader keeps initialization data, string table, thread table and object tables per
// provider): ticks per second, the string and thread tables (entries may be redefined at any
// point; a later definition wins for the records that follow) and the userspace objects that
// label pointer arguments. Tables hold views into the input, so they cost no copies. The string
// and thread tables are arrays by index while the indexes defined stay dense (every record looks
// them up, and writers number their entries from 1 up), with a hash map for indexes beyond: so
// that neither a sparse provider nor many small ones make them grow beyond a small multiple of
// the input's own size.
#pragma once

#include <libdivide.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "collectors/fxt/records.hpp"
#include "protocol/model/event.hpp"

namespace apcgate::collectors::fxt {

class ProviderTables {
  public:
    // What an index that was never defined resolves to (the string record was lost).
    static constexpr std::string_view kUndefinedString = "?";

    [[nodiscard]] std::string_view string(std::uint16_t index) const {
        if (index == 0) return {};
        const std::string_view* s = strings_.find(index);
        return s == nullptr ? kUndefinedString : *s;
    }
    // Nullopt when the index was never defined.
    [[nodiscard]] std::optional<ThreadKoids> thread(std::uint8_t index) const {
        const ThreadKoids* t = threads_.find(index);
        if (t == nullptr) return std::nullopt;
        return *t;
    }
    // The label of a userspace object at `pointer`, empty when unknown.
    [[nodiscard]] std::string_view object(std::uint64_t pointer) const;

    // Applies a table-changing record (string, thread, initialization, userspace object);
    // other records are ignored.
    void apply(const Record& record);
    // Forgets everything (a provider info record starts the provider afresh).
    void reset();

    [[nodiscard]] std::uint64_t ticks_per_second() const { return ticks_per_second_; }
    // Ticks in this provider's clock as ns; nullopt when it does not fit in 63 bits. The usual
    // cases inline (every event's timestamp passes here, some twice); the rest in to_ns_wide().
    [[nodiscard]] std::optional<model::Nanos> to_ns(std::uint64_t ticks) const {
        if (ticks_per_second_ == kDefaultTicksPerSecond) {
            if (ticks > kMaxNs) return std::nullopt;
            return static_cast<model::Nanos>(ticks);
        }
        if (ticks <= UINT64_MAX / kDefaultTicksPerSecond) {
            // A clock slower than 0.5 GHz can still take it past 63 bits.
            const std::uint64_t ns =
                libdivide::libdivide_u64_do(ticks * kDefaultTicksPerSecond, &per_second_);
            if (ns > kMaxNs) return std::nullopt;
            return static_cast<model::Nanos>(ns);
        }
        return to_ns_wide(ticks);
    }

    // Values by a small index: an array up to twice the number of definitions (and a few), a
    // hash map past it. An index is looked up in the array first, then (when the array has no
    // value for it) in the map.
    template <typename V>
    class IndexTable {
      public:
        [[nodiscard]] const V* find(std::size_t index) const {
            if (index < dense_.size() && dense_[index].defined) return &dense_[index].value;
            if (sparse_.empty()) return nullptr;
            auto it = sparse_.find(index);
            return it == sparse_.end() ? nullptr : &it->second;
        }
        void set(std::size_t index, const V& value) {
            ++defined_;
            const std::size_t limit = 2 * defined_ + kSlack;
            if (index >= dense_.size() && index < limit)
                dense_.resize(std::max(index + 1, std::min(2 * dense_.size(), limit)));
            if (index < dense_.size()) {
                dense_[index] = Slot{value, true};
                if (!sparse_.empty()) sparse_.erase(index);  // defined there before the array grew
            } else {
                sparse_[index] = value;
            }
        }

      private:
        static constexpr std::size_t kSlack = 8;
        struct Slot {
            V value{};
            bool defined = false;
        };
        std::vector<Slot> dense_;
        std::unordered_map<std::size_t, V> sparse_;
        std::size_t defined_ = 0;  // definitions made, redefinitions included
    };

  private:
    static constexpr auto kMaxNs =
        static_cast<std::uint64_t>(std::numeric_limits<model::Nanos>::max());
    // to_ns() of ticks whose product with 10^9 passes 64 bits.
    [[nodiscard]] std::optional<model::Nanos> to_ns_wide(std::uint64_t ticks) const;

    IndexTable<std::string_view> strings_;
    IndexTable<ThreadKoids> threads_;
    std::unordered_map<std::uint64_t, std::string_view> objects_;
    std::uint64_t ticks_per_second_ = kDefaultTicksPerSecond;
    // ticks_per_second_ as a multiply and shift (libdivide): every timestamp of the provider is
    // divided by it, and a 64-bit division costs several times as much. Exact for every
    // dividend, as the division is.
    libdivide::libdivide_u64_t per_second_ = libdivide::libdivide_u64_gen(kDefaultTicksPerSecond);
};

}  // namespace apcgate::collectors::fxt
