#include "daemon/cli/progress_bar.hpp"

#include <unistd.h>

#include <cstdio>

namespace apcgate::daemon {

ProgressBar::ProgressBar(std::string label, std::uint64_t total_bytes)
    : label_(std::move(label)),
      total_(total_bytes),
      enabled_(total_bytes >= kMinBytes && ::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

ProgressBar::~ProgressBar() {
    finish();
}

void ProgressBar::update(std::uint64_t done) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (drawn_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    drawn_ = true;
    const double frac = total_ == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(total_);
    const int width = 30;
    const int filled = static_cast<int>(frac * width);
    const double secs = std::chrono::duration<double>(now - start_).count();
    const double mbs = secs > 0 ? static_cast<double>(done) / 1e6 / secs : 0.0;
    std::fprintf(stderr, "\r%s [%.*s%.*s] %3d%% %.1f/%.1f MB %.0f MB/s", label_.c_str(), filled,
                 "##############################", width - filled, "..............................",
                 static_cast<int>(frac * 100), static_cast<double>(done) / 1e6,
                 static_cast<double>(total_) / 1e6, mbs);
    std::fflush(stderr);
}

void ProgressBar::finish() {
    if (!enabled_ || !drawn_) return;
    update(total_);
    std::fputc('\n', stderr);
    drawn_ = false;
    enabled_ = false;
}

}  // namespace apcgate::daemon
