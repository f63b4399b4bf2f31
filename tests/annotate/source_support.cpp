#include "source_support.hpp"

#include <unistd.h>

#include <thread>

namespace apcgate::annotate_test {

SourceTest::SourceTest() {
    static int n = 0;
    dir_ = std::filesystem::temp_directory_path() /
           ("apcgate-annotate-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    config_.socket_name = unique_socket_name("src");
    config_.tcp_port = free_port_pair();
    config_.text_fifo = dir_ / "annotate";
    config_.text_socket = dir_ / "annotate.sock";
    config_.fifo_tid = 77;
}

SourceTest::~SourceTest() {
    source_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

void SourceTest::make() {
    source_ = std::make_unique<collectors::annotate::AnnotateSource>(
        config_, [this](collectors::annotate::LogLevel, const std::string& line) {
            std::lock_guard lock(log_mu_);
            log_.push_back(line);
        });
}

void SourceTest::start() {
    settings_.live_rate_ms = 10;
    const collectors::CaptureContext ctx{settings_, counters_, 0};
    ASSERT_TRUE(source_->start(ctx).ok());
}

std::size_t SourceTest::poll() {
    const std::size_t before = events_.size();
    source_->poll(0, events_);
    return events_.size() - before;
}

void SourceTest::stop() {
    source_->stop(0, events_);
}

bool SourceTest::logged(const std::string& part) const {
    std::lock_guard lock(log_mu_);
    for (const auto& l : log_)
        if (l.find(part) != std::string::npos) return true;
    return false;
}

std::string SourceTest::log_text() const {
    std::lock_guard lock(log_mu_);
    std::string s;
    for (const auto& l : log_) s += l + "\n";
    return s;
}

std::size_t SourceTest::disconnects() const {
    std::size_t n = 0;
    for (const auto& e : events_) n += std::holds_alternative<model::ExternalDisconnect>(e);
    return n;
}

}  // namespace apcgate::annotate_test
