// What a collector (or the encoder) counts about a capture, in one shape: each declares its
// statistics once, as a constexpr table of specs indexed by its own enum, and counts into a
// Statistics array. The printers (convert --json, the capture-end log) walk the specs, so a new
// statistic is printed, named and explained everywhere by adding one table entry.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace apcgate::model {

// What a non-zero count means for the user.
enum class Severity : std::uint8_t {
    Info,      // how the capture went; nothing missing
    DataLoss,  // something the capture should show is missing or was changed to fit
    Error,     // input or an operation was wrong (a malformed record, a failed read)
};

constexpr std::string_view severity_name(Severity s) {
    switch (s) {
        case Severity::Info:
            return "info";
        case Severity::DataLoss:
            return "data_loss";
        case Severity::Error:
            return "error";
    }
    return "info";
}

struct StatisticSpec {
    std::string_view name;  // stable snake_case, unique in the program (scripts read it)
    Severity severity = Severity::Info;
    std::string_view description;  // one sentence a user understands
};

// One count with its spec, for printers that do not know the collector's enum.
struct StatisticValue {
    const StatisticSpec* spec = nullptr;
    std::uint64_t value = 0;
};

// Counts of one table's statistics. `kSpecs` is the collector's table (std::array of
// StatisticSpec in the order of `Id`, whose last enumerator is Count). Counting is an array
// index with a constant: as cheap as incrementing a named field.
template <typename Id, const auto& kSpecs>
class Statistics {
  public:
    static constexpr std::size_t kSize = std::tuple_size_v<std::remove_cvref_t<decltype(kSpecs)>>;
    static_assert(kSize == static_cast<std::size_t>(Id::Count),
                  "a statistics table needs one spec per enumerator, in enum order");

    constexpr std::uint64_t& operator[](Id id) { return counts_[index(id)]; }
    constexpr std::uint64_t operator[](Id id) const { return counts_[index(id)]; }

    static constexpr const StatisticSpec& spec(Id id) { return kSpecs[index(id)]; }
    static constexpr std::span<const StatisticSpec> specs() { return kSpecs; }

    constexpr Statistics& operator+=(const Statistics& other) {
        for (std::size_t i = 0; i < kSize; ++i) counts_[i] += other.counts_[i];
        return *this;
    }
    // What was counted since `earlier` (an earlier snapshot of the same counts).
    [[nodiscard]] constexpr Statistics since(const Statistics& earlier) const {
        Statistics d;
        for (std::size_t i = 0; i < kSize; ++i) d.counts_[i] = counts_[i] - earlier.counts_[i];
        return d;
    }
    // Every statistic of the table, zero or not, in table order.
    void append_to(std::vector<StatisticValue>& out) const {
        for (std::size_t i = 0; i < kSize; ++i) out.push_back({&kSpecs[i], counts_[i]});
    }
    [[nodiscard]] std::vector<StatisticValue> values() const {
        std::vector<StatisticValue> out;
        out.reserve(kSize);
        append_to(out);
        return out;
    }

  private:
    static constexpr std::size_t index(Id id) { return static_cast<std::size_t>(id); }
    std::array<std::uint64_t, kSize> counts_{};
};

}  // namespace apcgate::model
