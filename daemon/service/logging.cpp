#include "daemon/service/logging.hpp"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>

namespace apcgate::daemon {

void setup_logging(const std::string& level) {
    auto logger = spdlog::stderr_logger_mt("apcgate");
    const bool journal = std::getenv("JOURNAL_STREAM") != nullptr;
    logger->set_pattern(journal ? "<%l> %v" : "%Y-%m-%d %H:%M:%S.%e %^%l%$ %v");
    spdlog::set_default_logger(logger);
    spdlog::set_level(spdlog::level::from_str(level));
    spdlog::flush_on(spdlog::level::info);
}

}  // namespace apcgate::daemon
