// Per-device baselines for counters summed over devices (network interfaces, disks). Keeping one
// baseline per device, rather than one for the sum, means an interface or disk that appears or
// disappears mid-capture neither adds its whole history to one sample nor makes the sum go
// backwards: a new device starts at its current value, and a device whose counter went backwards
// (reset, or removed and re-added under the same name) counts 0 once and is re-baselined.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace apcgate::collectors::procfs {

class DeviceDeltas {
  public:
    // Increments of `a` and `b` for `name` since its previous sample (0, 0 the first time).
    struct Pair {
        std::uint64_t a = 0, b = 0;
    };

    void begin_sample();  // call before the sample's update()s
    Pair update(std::string_view name, std::uint64_t a, std::uint64_t b);
    void end_sample();  // forgets devices the sample did not mention
    void clear() { entries_.clear(); }
    [[nodiscard]] std::size_t size() const { return entries_.size(); }

  private:
    struct Entry {
        std::string name;
        std::uint64_t a = 0, b = 0;
        bool seen = false;
    };
    // A handful of devices: a linear scan beats a map and allocates only for new devices.
    std::vector<Entry> entries_;
};

}  // namespace apcgate::collectors::procfs
