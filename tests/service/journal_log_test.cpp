// Journal-friendly logging: syslog priorities, and stderr recognised as the journal only when
// JOURNAL_STREAM names it.
#include "daemon/service/journal_log.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <string>

namespace apcgate::daemon {
namespace {

class EnvGuard {
  public:
    explicit EnvGuard(const char* name) : name_(name) {
        if (const char* v = std::getenv(name)) old_ = v;
    }
    ~EnvGuard() {
        if (old_)
            ::setenv(name_, old_->c_str(), 1);
        else
            ::unsetenv(name_);
    }

  private:
    const char* name_;
    std::optional<std::string> old_;
};

TEST(JournalLog, LevelsMapToSyslogPriorities) {
    EXPECT_EQ(syslog_priority(spdlog::level::trace), 7);
    EXPECT_EQ(syslog_priority(spdlog::level::debug), 7);
    EXPECT_EQ(syslog_priority(spdlog::level::info), 6);
    EXPECT_EQ(syslog_priority(spdlog::level::warn), 4);
    EXPECT_EQ(syslog_priority(spdlog::level::err), 3);
    EXPECT_EQ(syslog_priority(spdlog::level::critical), 2);
}

TEST(JournalLog, StderrIsTheJournalOnlyWhenTheVariableNamesIt) {
    EnvGuard guard("JOURNAL_STREAM");
    ::unsetenv("JOURNAL_STREAM");
    EXPECT_FALSE(stderr_is_journal());
    struct stat st {};
    ASSERT_EQ(::fstat(2, &st), 0);
    const std::string mine = std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
    ::setenv("JOURNAL_STREAM", mine.c_str(), 1);
    EXPECT_TRUE(stderr_is_journal());
    const std::string other = std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino + 1);
    ::setenv("JOURNAL_STREAM", other.c_str(), 1);  // inherited by a redirected child
    EXPECT_FALSE(stderr_is_journal());
    ::setenv("JOURNAL_STREAM", "garbage", 1);
    EXPECT_FALSE(stderr_is_journal());
    // Only systemd's exact "DEVICE:INODE": trailing text or a number out of range names nothing.
    const std::string trailing = mine + "x";
    ::setenv("JOURNAL_STREAM", trailing.c_str(), 1);
    EXPECT_FALSE(stderr_is_journal());
    const std::string spaced = " " + mine;
    ::setenv("JOURNAL_STREAM", spaced.c_str(), 1);
    EXPECT_FALSE(stderr_is_journal());
    const std::string huge = std::to_string(st.st_dev) + ":99999999999999999999999";
    ::setenv("JOURNAL_STREAM", huge.c_str(), 1);
    EXPECT_FALSE(stderr_is_journal());
}

}  // namespace
}  // namespace apcgate::daemon
