// A one-line progress bar on a terminal (stderr) for long conversions: percentage, bytes and
// throughput, redrawn at most ten times a second. Silent when stderr is not a terminal or the
// input is small, so logs and pipes stay clean.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace apcgate::daemon {

class ProgressBar {
  public:
    static constexpr std::uint64_t kMinBytes =
        std::uint64_t{16} * 1024 * 1024;  // smaller inputs: no bar

    ProgressBar(std::string label, std::uint64_t total_bytes);
    ~ProgressBar();
    void update(std::uint64_t done_bytes);
    void finish();

  private:
    std::string label_;
    std::uint64_t total_;
    bool enabled_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace apcgate::daemon
