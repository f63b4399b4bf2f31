#include "daemon/service/journal_log.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <charconv>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>

namespace apcgate::daemon {

namespace {

// spdlog custom flag %* : the message's syslog priority digit.
class PriorityFlag final : public spdlog::custom_flag_formatter {
  public:
    void format(const spdlog::details::log_msg& msg, const std::tm&,
                spdlog::memory_buf_t& dest) override {
        const char digit = static_cast<char>('0' + syslog_priority(msg.level));
        dest.push_back(digit);
    }
    [[nodiscard]] std::unique_ptr<custom_flag_formatter> clone() const override {
        return std::make_unique<PriorityFlag>();
    }
};

}  // namespace

int syslog_priority(spdlog::level::level_enum level) {
    switch (level) {
        case spdlog::level::trace:
        case spdlog::level::debug:
            return 7;  // LOG_DEBUG
        case spdlog::level::info:
            return 6;  // LOG_INFO
        case spdlog::level::warn:
            return 4;  // LOG_WARNING
        case spdlog::level::err:
            return 3;  // LOG_ERR
        case spdlog::level::critical:
            return 2;  // LOG_CRIT
        default:
            return 6;
    }
}

bool stderr_is_journal() {
    const char* env = std::getenv("JOURNAL_STREAM");
    if (env == nullptr) return false;
    // systemd writes "DEVICE:INODE", both in decimal.
    const std::string_view text(env);
    unsigned long long dev = 0;
    unsigned long long ino = 0;
    const char* const end = text.data() + text.size();
    const auto d = std::from_chars(text.data(), end, dev);
    if (d.ec != std::errc() || d.ptr == end || *d.ptr != ':') return false;
    const auto i = std::from_chars(d.ptr + 1, end, ino);
    if (i.ec != std::errc() || i.ptr != end) return false;
    struct stat st {};
    if (::fstat(2, &st) != 0) return false;
    return static_cast<unsigned long long>(st.st_dev) == dev &&
           static_cast<unsigned long long>(st.st_ino) == ino;
}

void use_journal_priorities() {
    if (!stderr_is_journal()) return;
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    formatter->add_flag<PriorityFlag>('*').set_pattern("<%*>%v");
    spdlog::default_logger()->set_formatter(std::move(formatter));
}

}  // namespace apcgate::daemon
