// CPU samples by function and by call stack. Each Backtrace frame (cookie, offset) is named once
// through ImageSymbols and cached; a sample adds one to its innermost function's self count, one
// to the total count of every distinct function on its stack (recursion counts once), and one to
// its stack (outermost first), from which the folded stacks come. Functions, cached addresses and
// stacks are each bounded; past a bound the sample is still counted, under "(other)".
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "daemon/analysis/image_symbols.hpp"
#include "daemon/analysis/name_table.hpp"
#include "daemon/analysis/report.hpp"
#include "protocol/model/event.hpp"

namespace apcgate::daemon::analysis {

class StackProfile {
  public:
    static constexpr std::size_t kMaxFunctions = 1u << 20;
    static constexpr std::size_t kMaxAddresses = 1u << 22;
    static constexpr std::size_t kMaxStacks = 1u << 20;

    // `only_pid`: count only that process's samples (report --pid).
    StackProfile(ImageSymbols& symbols, std::optional<std::int32_t> only_pid)
        : symbols_(symbols), only_pid_(only_pid) {}

    void sample(const model::Backtrace& b);
    void fill(Report& r) const;

  private:
    struct VectorHash {
        std::size_t operator()(const std::vector<std::uint32_t>& v) const {
            std::uint64_t h = 1469598103934665603ull;
            for (const std::uint32_t x : v) h = (h ^ x) * 1099511628211ull;
            return static_cast<std::size_t>(h);
        }
    };
    struct Function {
        std::uint32_t name = 0;
        std::uint32_t image = 0;
        std::uint64_t self = 0, total = 0;
    };
    std::uint32_t function_of(const model::StackFrame& f);

    ImageSymbols& symbols_;
    std::optional<std::int32_t> only_pid_;
    NameTable names_{kMaxFunctions, "(other)"};
    std::vector<Function> functions_;
    std::unordered_map<std::uint64_t, std::uint32_t> by_name_image_;  // name << 32 | image
    struct FrameHash {
        std::size_t operator()(const std::pair<std::int32_t, std::int64_t>& k) const {
            // Unsigned: an offset may be any 64-bit value, and a signed product could overflow.
            return std::hash<std::uint64_t>{}(static_cast<std::uint64_t>(k.second) * 31U +
                                              static_cast<std::uint32_t>(k.first));
        }
    };
    std::unordered_map<std::pair<std::int32_t, std::int64_t>, std::uint32_t, FrameHash> cache_;
    std::unordered_map<std::vector<std::uint32_t>, std::uint64_t, VectorHash> stacks_;
    std::uint64_t stacks_folded_ = 0;  // samples whose stack did not fit
    std::vector<std::uint32_t> scratch_;
    std::vector<std::uint32_t> seen_;
};

}  // namespace apcgate::daemon::analysis
