#include "perf_capture_check.hpp"

#include <set>

namespace apcgate::e2e {

CheckedPerfCapture check_perf_capture(const std::vector<std::string>& frames,
                                      const xml::CapturedDoc& captured) {
    std::set<std::int32_t> keys;
    for (const auto& c : captured.counters) keys.insert(c.key);
    perf_framing::PerfCaptureChecker checker(keys);
    std::uint64_t offset = 0;
    for (const std::string& f : frames) {
        const auto* p = reinterpret_cast<const std::uint8_t*>(f.data());  // NOLINT
        checker.frame({p, f.size()}, offset);
        offset += f.size();
    }
    CheckedPerfCapture out;
    for (const auto& v : checker.finish())
        out.errors.push_back("offset " + std::to_string(v.offset) + ": " + v.text);
    out.tally = checker.tally();
    return out;
}

}  // namespace apcgate::e2e
