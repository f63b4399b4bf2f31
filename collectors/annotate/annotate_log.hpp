// How the annotation sources report, through the collectors' injected log sink (source.hpp).
// Warnings about misbehaving clients are rate limited, so a hostile client cannot flood the log.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "collectors/source.hpp"

namespace apcgate::collectors::annotate {

using collectors::LogFn;
using collectors::LogLevel;

class Log {
  public:
    // At most `max_warnings` client warnings per capture; the rest are counted.
    explicit Log(LogFn fn, std::uint32_t max_warnings = 20)
        : fn_(std::move(fn)), max_(max_warnings) {}

    void debug(const std::string& s) const { emit(LogLevel::Debug, s); }
    void info(const std::string& s) const { emit(LogLevel::Info, s); }
    void warn(const std::string& s) const { emit(LogLevel::Warn, s); }
    // A warning caused by a client (rate limited).
    void client_warn(const std::string& s) {
        std::lock_guard lock(mu_);
        if (warned_ < max_) {
            ++warned_;
            emit(LogLevel::Warn, warned_ == max_ ? s + " (further client warnings suppressed)" : s);
        } else {
            ++suppressed_;
        }
    }
    // Resets the limit (capture start) and returns how many warnings were suppressed.
    std::uint64_t reset_client_warnings() {
        std::lock_guard lock(mu_);
        const std::uint64_t n = suppressed_;
        warned_ = 0;
        suppressed_ = 0;
        return n;
    }

  private:
    void emit(LogLevel level, const std::string& s) const {
        if (fn_) fn_(level, s);
    }

    LogFn fn_;
    std::uint32_t max_;
    std::mutex mu_;
    std::uint32_t warned_ = 0;
    std::uint64_t suppressed_ = 0;
};

}  // namespace apcgate::collectors::annotate
