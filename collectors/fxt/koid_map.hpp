// Zircon koids (64-bit process and thread ids) as the 32-bit pids/tids of the event model. A koid
// that fits stays itself, so ids in Streamline match the trace; larger ones (Fuchsia marks
// virtual threads with bit 63, Perfetto's test vectors use 0x1aaa...) get ids counted down from
// INT32_MAX that no fitting koid of the archive uses. The prescan notes every koid first, so the
// map is the same for every read of an unchanged archive.
#pragma once

#include <cstdint>
#include <set>
#include <unordered_map>

namespace apcgate::collectors::fxt {

class KoidMap {
  public:
    // Records a koid seen in the archive (before any id() call that may need a fresh id).
    void note(std::uint64_t koid);
    // The model id of `koid` (0 stays 0: the idle thread / no process). Inline for the usual
    // koid that fits: every record asks for one or two.
    std::int32_t id(std::uint64_t koid) {
        return fits(koid) ? static_cast<std::int32_t>(koid) : remap(koid);
    }
    [[nodiscard]] std::size_t remapped() const { return large_.size(); }

  private:
    static constexpr std::int32_t kNoteFrom = 1 << 30;
    [[nodiscard]] static bool fits(std::uint64_t koid) {
        return koid <= static_cast<std::uint64_t>(INT32_MAX);
    }
    std::int32_t remap(std::uint64_t koid);

    std::set<std::int32_t> direct_;  // fitting koids >= kNoteFrom: never handed out as fresh ids
    std::unordered_map<std::uint64_t, std::int32_t> large_;
    std::int32_t next_ = INT32_MAX;
};

}  // namespace apcgate::collectors::fxt
