// One Streamline (or other client) connection, shaped like Asio's HTTP server examples: a reader
// coroutine feeds the CommandReader (the request parser) and handles each command; replies and
// APC frames go through one ordered send queue drained by a writer coroutine, so a capture can
// stream frames while pings are answered. Nothing blocks; closing cancels pending reads/writes.
#pragma once

#include <asio/awaitable.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/steady_timer.hpp>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/capture_service.hpp"
#include "daemon/capture_sink.hpp"
#include "protocol/gator/command.hpp"
#include "daemon/framing.hpp"
#include "daemon/perf_live_capture.hpp"
#include "protocol/gator/command_reader.hpp"

namespace apcgate::daemon {

class Connection;

struct ConnectionLimits {
    std::size_t max_send_backlog = 64 * 1024 * 1024;  // queued but unsent bytes
};

// Frames of a live capture as APC Data responses on this connection.
class ConnectionSink final : public CaptureSink {
public:
    explicit ConnectionSink(Connection& c) : conn_(c) {}
    void frame(std::span<const std::uint8_t> body) override;
    void finish() override;  // zero-length APC Data: end of sequence
    [[nodiscard]] std::uint64_t bytes_written() const override { return bytes_; }
    [[nodiscard]] std::uint64_t unsent_bytes() const override;
    void when_drained(std::uint64_t low, std::function<void()> ready) override;

private:
    Connection& conn_;
    std::uint64_t bytes_ = 0;
};

class Connection : public std::enable_shared_from_this<Connection> {
public:
    Connection(asio::ip::tcp::socket socket, CaptureService& service, ConnectionLimits limits,
               Framing framing = Framing::Gator);
    ~Connection();

    void start();
    // Ends a running capture cleanly (end of sequence), then closes after the queue drains.
    void shutdown(const std::string& reason);
    [[nodiscard]] bool finished() const { return reader_done_ && writer_done_; }
    [[nodiscard]] const std::string& peer() const { return peer_; }

    void send(std::vector<std::uint8_t> bytes);
    // Bytes queued or being written, not yet taken by the socket.
    [[nodiscard]] std::size_t unsent() const { return backlog_; }
    // Posts `ready` once at most `low` bytes are unsent; dropped if the connection closes first.
    void when_drained(std::size_t low, std::function<void()> ready);

private:
    asio::awaitable<void> read_loop();
    asio::awaitable<void> write_loop();
    // Returns false when the connection must close.
    bool handle(const gator::Command& cmd);
    void handle_request(const gator::Command& cmd);
    void handle_deliver(const gator::Command& cmd);
    bool handle_start();
    void reply(gator::ResponseCode code, std::string_view body = {});
    void fatal(const std::string& message);  // Error response, then close
    void close_after_drain();
    void on_capture_ended(const std::string& reason);
    // The framing of this connection's captures: Perf only when asked and there are no trace
    // inputs (framing.hpp).
    [[nodiscard]] bool perf_framing() const;
    bool start_perf(model::CaptureCounters counters);
    [[nodiscard]] bool capture_running() const;
    void stop_capture(const std::string& reason);
    void notify_drained();

    asio::ip::tcp::socket socket_;
    asio::steady_timer wake_;  // wakes the writer when the queue gets data or closing is set
    CaptureService& service_;
    ConnectionLimits limits_;
    std::string peer_;
    gator::CommandReader parser_;
    std::deque<std::vector<std::uint8_t>> queue_;
    std::size_t backlog_ = 0;
    std::function<void()> drained_;  // when_drained()'s waiter, at most one
    std::size_t drained_low_ = 0;
    bool closing_ = false;
    bool reader_done_ = false;
    bool writer_done_ = false;
    model::CaptureSettings settings_;                 // from a delivered session
    std::optional<model::CaptureCounters> prepared_;  // keys announced in captured.xml
    ConnectionSink sink_{*this};
    std::shared_ptr<LiveCapture> capture_;
    Framing framing_ = Framing::Gator;
    std::shared_ptr<PerfLiveCapture> perf_capture_;
};

}  // namespace apcgate::daemon
