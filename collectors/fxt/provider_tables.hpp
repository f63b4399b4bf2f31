// The state one trace provider's records are read against (spec "Provider section metadata":
// a reader keeps initialization data, string table, thread table and object tables per
// provider): ticks per second, the string and thread tables (entries may be redefined at any
// point; a later definition wins for the records that follow) and the userspace objects that
// label pointer arguments. Tables hold views into the input, so they cost no copies; they are
// hash maps so that many small providers cannot make them grow beyond the input's own size.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "collectors/fxt/records.hpp"
#include "protocol/model/event.hpp"

namespace apcgate::collectors::fxt {

class ProviderTables {
  public:
    // What an index that was never defined resolves to (the string record was lost).
    static constexpr std::string_view kUndefinedString = "?";

    [[nodiscard]] std::string_view string(std::uint16_t index) const;
    // Nullopt when the index was never defined.
    [[nodiscard]] std::optional<ThreadKoids> thread(std::uint8_t index) const;
    // The label of a userspace object at `pointer`, empty when unknown.
    [[nodiscard]] std::string_view object(std::uint64_t pointer) const;

    // Applies a table-changing record (string, thread, initialization, userspace object);
    // other records are ignored.
    void apply(const Record& record);
    // Forgets everything (a provider info record starts the provider afresh).
    void reset();

    [[nodiscard]] std::uint64_t ticks_per_second() const { return ticks_per_second_; }
    // Ticks in this provider's clock as ns; nullopt when it does not fit in 63 bits.
    [[nodiscard]] std::optional<model::Nanos> to_ns(std::uint64_t ticks) const;

  private:
    std::unordered_map<std::uint16_t, std::string_view> strings_;
    std::unordered_map<std::uint8_t, ThreadKoids> threads_;
    std::unordered_map<std::uint64_t, std::string_view> objects_;
    std::uint64_t ticks_per_second_ = kDefaultTicksPerSecond;
};

}  // namespace apcgate::collectors::fxt
