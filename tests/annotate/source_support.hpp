// Shared by the source tests: an AnnotateSource on names, ports and paths of its own, a capture
// driven by hand (start, polls, stop), and the External streams of the events it produced put
// back together per connection.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "annotate_client.hpp"
#include "carried_streams.hpp"
#include "collectors/annotate/annotate_source.hpp"

namespace apcgate::annotate_test {

class SourceTest : public ::testing::Test {
  protected:
    SourceTest();
    ~SourceTest() override;

    void make();         // the source under test, from config_
    void start();        // a capture begins
    std::size_t poll();  // appends to events_; returns how many came
    void stop();         // appends the last events
    // Polls until `done()` or the timeout; true if done.
    template <typename F>
    bool poll_until(F done, std::chrono::milliseconds timeout = std::chrono::seconds(20));
    [[nodiscard]] bool logged(const std::string& part) const;
    [[nodiscard]] std::string log_text() const;
    [[nodiscard]] std::size_t disconnects() const;

    collectors::annotate::AnnotateConfig config_;
    std::filesystem::path dir_;
    std::unique_ptr<collectors::annotate::AnnotateSource> source_;
    std::vector<model::Event> events_;

  private:
    model::CaptureSettings settings_;
    model::CaptureCounters counters_;
    mutable std::mutex log_mu_;
    std::vector<std::string> log_;
};

template <typename F>
bool SourceTest::poll_until(F done, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        poll();
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return done();
}

}  // namespace apcgate::annotate_test
