// One Streamline (or other client) connection, shaped like Asio's HTTP server examples: a reader
// coroutine feeds the CommandReader (the request parser) and handles each command; replies and
// APC frames go through one ordered send queue drained by a writer coroutine, so a capture can
// stream frames while pings are answered. Nothing blocks; closing cancels pending reads/writes.
// A watchdog coroutine (as in Asio's echo_server_with_deadline example) enforces the deadlines:
// the handshake must be complete within ConnectionLimits::handshake_timeout of the accept,
// however slowly its bytes trickle in; a connection without a capture is closed after
// idle_timeout without a complete command; a closing connection whose client takes none of its
// last bytes is cut after kCloseGrace. A capture's connection is never timed out: Streamline
// keeps it quiet apart from pings.
#pragma once

#include <asio/awaitable.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/capture/capture_service.hpp"
#include "daemon/capture/capture_sink.hpp"
#include "daemon/capture/perf_live_capture.hpp"
#include "daemon/server/slot_policy.hpp"
#include "daemon/service/framing.hpp"
#include "protocol/gator/command.hpp"
#include "protocol/gator/command_reader.hpp"

namespace apcgate::daemon {

class Connection;

struct ConnectionLimits {
    // Queued but unsent bytes (as allocated, per message) before a client is taken to have
    // stopped reading: its capture stops and it gets an Error. 0: no limit.
    std::size_t max_send_backlog = std::size_t{64} * 1024 * 1024;
    // From the accept to the end of the handshake (however slowly it arrives); 0: no limit.
    std::chrono::seconds handshake_timeout{10};
    // Without a complete command while no capture runs on it; 0: no limit.
    std::chrono::seconds idle_timeout{600};
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
    using Clock = std::chrono::steady_clock;
    // How long a closing connection may wait for its client to take its last bytes (an Error,
    // a capture's last frames) without any of them being taken.
    static constexpr std::chrono::seconds kCloseGrace{10};
    // Bytes handed to the socket in one write at most (at least one message): what is in
    // flight cannot be taken back, so a client dropped for not reading holds no more than this.
    static constexpr std::size_t kWriteChunk = std::size_t{256} * 1024;

    Connection(asio::ip::tcp::socket socket, CaptureService& service, ConnectionLimits limits,
               Framing framing = Framing::Gator);
    ~Connection();

    void start();
    // Ends a running capture cleanly (end of sequence), then closes after the queue drains.
    void shutdown(const std::string& reason);
    // Gives up the slot for a newer connection (slot_policy.hpp): an Error saying so when it
    // can go out at once, then closed.
    void evict(const std::string& why);
    [[nodiscard]] SlotState slot_state() const;
    [[nodiscard]] bool finished() const { return reader_done_ && writer_done_ && watchdog_done_; }
    [[nodiscard]] const std::string& peer() const { return peer_; }

    void send(std::vector<std::uint8_t> bytes);
    // Bytes queued or being written, not yet taken by the socket.
    [[nodiscard]] std::size_t unsent() const { return backlog_; }
    // Posts `ready` once at most `low` bytes are unsent; dropped if the connection closes first.
    void when_drained(std::size_t low, std::function<void()> ready);

  private:
    struct Deadline {
        Clock::time_point when;
        const char* why;  // what the Error and the log say when it passes
    };

    asio::awaitable<void> read_loop();
    asio::awaitable<void> write_loop();
    asio::awaitable<void> watchdog();
    [[nodiscard]] std::optional<Deadline> deadline() const;
    // Returns false when the connection must close.
    bool handle(const gator::Command& cmd);
    void handle_request(const gator::Command& cmd);
    void handle_deliver(const gator::Command& cmd);
    bool handle_start();
    void reply(gator::ResponseCode code, std::string_view body = {});
    void fatal(const std::string& message);  // Error response, then close
    void close_after_drain();
    void close_now();  // drops whatever is unsent
    // The client stopped reading: drop the queue, an Error after the message being written
    // (so on a frame boundary), stop the capture, close.
    void drop_slow_client();
    void enqueue(std::vector<std::uint8_t> bytes);
    void on_capture_ended(const std::string& reason);
    // The framing of this connection's captures: Perf only when asked and there are no trace
    // inputs (framing.hpp).
    [[nodiscard]] bool perf_framing() const;
    bool start_perf(const model::CaptureCounters& counters);
    [[nodiscard]] bool capture_running() const;
    void stop_capture(const std::string& reason);
    void notify_drained();

    asio::ip::tcp::socket socket_;
    asio::steady_timer wake_;      // wakes the writer when the queue gets data or closing is set
    asio::steady_timer watchdog_;  // the next deadline(); cancelled when that changes
    CaptureService& service_;
    ConnectionLimits limits_;
    std::string peer_;
    gator::CommandReader parser_;
    std::deque<std::vector<std::uint8_t>> queue_;
    std::size_t backlog_ = 0;
    std::function<void()> drained_;  // when_drained()'s waiter, at most one
    std::size_t drained_low_ = 0;
    bool closing_ = false;
    bool dropped_ = false;  // drop_slow_client(): nothing more is queued
    bool writing_ = false;  // a write is in flight
    bool reader_done_ = false;
    bool writer_done_ = false;
    bool watchdog_done_ = false;
    Clock::time_point accepted_;
    Clock::time_point last_command_;  // or the handshake's end
    Clock::time_point closing_since_;
    Clock::time_point last_written_;                  // the last write's completion
    model::CaptureSettings settings_;                 // from a delivered session
    std::optional<model::CaptureCounters> prepared_;  // keys announced in captured.xml
    ConnectionSink sink_{*this};
    std::shared_ptr<LiveCapture> capture_;
    Framing framing_ = Framing::Gator;
    std::shared_ptr<PerfLiveCapture> perf_capture_;
};

}  // namespace apcgate::daemon
