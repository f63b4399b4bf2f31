#include "daemon/server/connection.hpp"

#include <spdlog/spdlog.h>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/post.hpp>
#include <asio/redirect_error.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/write.hpp>
#include <utility>

#include "daemon/capture/capture_documents.hpp"
#include "daemon/server/memory_release.hpp"
#include "daemon/service/log_text.hpp"
#include "protocol/perf_framing/codes.hpp"
#include "xml/documents.hpp"

namespace apcgate::daemon {

using asio::use_awaitable;
using gator::ResponseCode;

namespace {

// gatord 9.x's answer: its protocol number says the capture is a Perf-type one.
constexpr std::string_view kPerfHandshakeReply = "GATOR 950\n";

// What a queued message costs: its allocation and the bookkeeping around it (the deque slot,
// the allocator's header). Counting sizes alone let many small frames use far more memory
// than the backlog limit said.
constexpr std::size_t kMessageOverhead = 64;
std::size_t cost(const std::vector<std::uint8_t>& message) {
    return message.capacity() + kMessageOverhead;
}

}  // namespace

void ConnectionSink::frame(std::span<const std::uint8_t> body) {
    const auto header =
        gator::response_header(ResponseCode::ApcData, static_cast<std::uint32_t>(body.size()));
    std::vector<std::uint8_t> out;
    out.reserve(header.size() + body.size());
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), body.begin(), body.end());
    bytes_ += out.size();
    conn_.send(std::move(out));
}

void ConnectionSink::finish() {
    conn_.send(gator::response(ResponseCode::ApcData));
}

std::uint64_t ConnectionSink::unsent_bytes() const {
    return conn_.unsent();
}

void ConnectionSink::when_drained(std::uint64_t low, std::function<void()> ready) {
    conn_.when_drained(static_cast<std::size_t>(low), std::move(ready));
}

Connection::Connection(asio::ip::tcp::socket socket, CaptureService& service,
                       ConnectionLimits limits, Framing framing)
    : socket_(std::move(socket)),
      wake_(socket_.get_executor()),
      watchdog_(socket_.get_executor()),
      service_(service),
      limits_(limits),
      accepted_(Clock::now()),
      last_command_(accepted_),
      last_written_(accepted_),
      framing_(framing) {
    std::error_code ec;
    const auto ep = socket_.remote_endpoint(ec);
    peer_ = ec ? "unknown peer" : ep.address().to_string() + ":" + std::to_string(ep.port());
    wake_.expires_at(asio::steady_timer::time_point::max());
}

Connection::~Connection() {
    const bool captured = capture_ != nullptr || perf_capture_ != nullptr;
    capture_.reset();  // the capture's buffers go before the memory is handed back
    perf_capture_.reset();
    spdlog::debug("{}: connection released", peer_);
    if (captured) release_free_memory();
}

void Connection::start() {
    spdlog::info("{}: connected", peer_);
    auto self = shared_from_this();
    asio::co_spawn(
        socket_.get_executor(), [self] { return self->read_loop(); }, asio::detached);
    asio::co_spawn(
        socket_.get_executor(), [self] { return self->write_loop(); }, asio::detached);
    asio::co_spawn(
        socket_.get_executor(), [self] { return self->watchdog(); }, asio::detached);
}

SlotState Connection::slot_state() const {
    SlotState s;
    s.closing = closing_;
    s.handshake_done = parser_.handshake_done();
    s.capture = (capture_ != nullptr || perf_capture_ != nullptr) && !dropped_;
    s.since = s.handshake_done ? last_command_ : accepted_;
    return s;
}

void Connection::send(std::vector<std::uint8_t> bytes) {
    if (dropped_ || !socket_.is_open()) return;
    if (limits_.max_send_backlog > 0 && backlog_ + cost(bytes) > limits_.max_send_backlog) {
        drop_slow_client();
        return;
    }
    enqueue(std::move(bytes));
}

void Connection::enqueue(std::vector<std::uint8_t> bytes) {
    backlog_ += cost(bytes);
    queue_.push_back(std::move(bytes));
    wake_.cancel();
}

void Connection::drop_slow_client() {
    spdlog::warn("{}: client is not reading ({} bytes unsent); dropping it", peer_, backlog_);
    dropped_ = true;
    // Everything still queued is whole messages: dropping them and queueing the Error leaves the
    // Error right after the message being written, on a frame boundary.
    for (const auto& m : queue_) backlog_ -= std::min(backlog_, cost(m));
    std::deque<std::vector<std::uint8_t>>().swap(queue_);
    drained_ = nullptr;
    enqueue(gator::response(ResponseCode::Error,
                            "client not reading: more than " +
                                std::to_string(limits_.max_send_backlog >> 20) +
                                " MiB unsent; capture stopped and connection closed"));
    close_after_drain();
    release_free_memory();
    // Stopping the capture from inside its own flush would re-enter it, so post that.
    asio::post(socket_.get_executor(), [self = shared_from_this()] {
        self->stop_capture("client not reading");
        // Stopping drains the kernel's last records on this thread and may take a while (long
        // under a sanitizer): the client's grace to take the last bytes starts once it is done,
        // or the Error already queued could be cut off before it had a chance to be written.
        self->closing_since_ = Clock::now();
    });
}

void Connection::when_drained(std::size_t low, std::function<void()> ready) {
    if (!socket_.is_open()) return;
    drained_ = std::move(ready);
    drained_low_ = low;
    notify_drained();
}

// Posted, not called: the waiter (the live capture feeding recorded sources) sends frames, and
// this runs inside the writer and inside when_drained().
void Connection::notify_drained() {
    if (drained_ && backlog_ <= drained_low_)
        asio::post(socket_.get_executor(), std::exchange(drained_, nullptr));
}

void Connection::reply(ResponseCode code, std::string_view body) {
    send(gator::response(code, body));
}

void Connection::fatal(const std::string& message) {
    spdlog::warn("{}: {}", peer_, loggable(message));
    reply(ResponseCode::Error, message);
    close_after_drain();
}

void Connection::close_after_drain() {
    if (!closing_) {
        closing_ = true;
        closing_since_ = Clock::now();
        watchdog_.cancel();  // the close grace may end before the deadline it waits for
    }
    wake_.cancel();
}

void Connection::close_now() {
    close_after_drain();
    std::error_code ec;
    socket_.close(ec);  // the reader's and the writer's operations end with operation_aborted
    std::deque<std::vector<std::uint8_t>>().swap(queue_);
    backlog_ = 0;
    drained_ = nullptr;
}

void Connection::evict(const std::string& why) {
    spdlog::info("{}: closed to make room for a new connection ({})", peer_, why);
    if (writing_ || !queue_.empty() || closing_) {
        close_now();  // its client is not taking what it has: no Error would get through
        return;
    }
    reply(ResponseCode::Error, "closed to make room for a new connection (" + why + ")");
    close_after_drain();
}

std::optional<Connection::Deadline> Connection::deadline() const {
    if (closing_)
        return Deadline{std::max(closing_since_, last_written_) + kCloseGrace, "close grace"};
    if (!parser_.handshake_done()) {
        if (limits_.handshake_timeout.count() == 0) return std::nullopt;
        return Deadline{accepted_ + limits_.handshake_timeout, "handshake not completed within"};
    }
    // A capture's connection ends with the capture (close_after_drain wakes the watchdog then).
    if (capture_ != nullptr || perf_capture_ != nullptr || limits_.idle_timeout.count() == 0)
        return std::nullopt;
    return Deadline{last_command_ + limits_.idle_timeout, "no command within"};
}

asio::awaitable<void> Connection::watchdog() {
    while (!writer_done_) {
        const auto due = deadline();
        if (due && Clock::now() >= due->when) {
            if (closing_) {
                spdlog::info("{}: client took none of the last bytes in {} s; closing", peer_,
                             kCloseGrace.count());
                close_now();
                break;
            }
            const auto limit =
                parser_.handshake_done() ? limits_.idle_timeout : limits_.handshake_timeout;
            fatal(std::string(due->why) + " " + std::to_string(limit.count()) + " s");
            continue;  // now closing: the close grace is next
        }
        watchdog_.expires_at(due ? due->when : Clock::time_point::max());
        std::error_code ec;
        co_await watchdog_.async_wait(asio::redirect_error(use_awaitable, ec));
    }
    watchdog_done_ = true;
}

void Connection::shutdown(const std::string& reason) {
    if (capture_running()) {
        stop_capture(reason);  // sends the end of sequence, then on_capture_ended closes
    } else {
        close_after_drain();
    }
}

asio::awaitable<void> Connection::write_loop() {
    std::vector<std::vector<std::uint8_t>> inflight;
    std::vector<asio::const_buffer> buffers;
    for (;;) {
        if (queue_.empty()) {
            if (closing_ || !socket_.is_open()) break;
            std::error_code ec;
            co_await wake_.async_wait(asio::redirect_error(use_awaitable, ec));
            wake_.expires_at(asio::steady_timer::time_point::max());
            continue;
        }
        // Gather what is queued into one write (fewer syscalls while streaming), up to a chunk.
        inflight.clear();
        buffers.clear();
        std::size_t gathered = 0;
        while (!queue_.empty() &&
               (inflight.empty() || gathered + queue_.front().size() <= kWriteChunk)) {
            gathered += queue_.front().size();
            inflight.push_back(std::move(queue_.front()));
            queue_.pop_front();
        }
        for (const auto& b : inflight) buffers.emplace_back(asio::buffer(b));
        std::error_code ec;
        writing_ = true;
        co_await asio::async_write(socket_, buffers, asio::redirect_error(use_awaitable, ec));
        writing_ = false;
        last_written_ = Clock::now();
        for (const auto& b : inflight) backlog_ -= std::min(backlog_, cost(b));
        inflight.clear();
        if (ec) {
            spdlog::debug("{}: write failed: {}", peer_, ec.message());
            closing_ = true;
            break;
        }
        notify_drained();
    }
    drained_ = nullptr;
    std::error_code ignored;
    socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    writer_done_ = true;
    watchdog_.cancel();
    stop_capture("client disconnected");
}

asio::awaitable<void> Connection::read_loop() {
    std::vector<std::uint8_t> buf(std::size_t{64} * 1024);
    while (!closing_) {
        std::error_code ec;
        const std::size_t n = co_await socket_.async_read_some(
            asio::buffer(buf), asio::redirect_error(use_awaitable, ec));
        if (ec) {
            if (closing_) break;
            if (auto err = parser_.at_eof()) {
                fatal(err->to_string());
            } else if (ec != asio::error::eof) {
                spdlog::info("{}: read failed: {}", peer_, ec.message());
            }
            stop_capture("client disconnected");
            close_after_drain();
            break;
        }
        std::span<const std::uint8_t> data(buf.data(), n);
        while (!data.empty() && !closing_) {
            std::size_t used = 0;
            auto item = parser_.parse(data, used);
            data = data.subspan(used);
            if (item.kind == gator::CommandReader::Kind::NeedMore) break;
            if (item.kind == gator::CommandReader::Kind::HandshakeDone) {
                last_command_ = Clock::now();
                const std::string_view hello =
                    perf_framing() ? kPerfHandshakeReply : gator::kHandshakeReply;
                send({hello.begin(), hello.end()});
            } else if (item.kind == gator::CommandReader::Kind::Error) {
                fatal(std::move(item.error).in_input(peer_).to_string());
            } else {
                last_command_ = Clock::now();
                if (!handle(item.command)) close_after_drain();
            }
        }
    }
    reader_done_ = true;
}

bool Connection::handle(const gator::Command& cmd) {
    spdlog::debug("{}: {} ({} bytes)", peer_, gator::command_name(cmd.code), cmd.body.size());
    switch (static_cast<gator::CommandCode>(cmd.code)) {
        case gator::CommandCode::RequestXml:
            handle_request(cmd);
            return true;
        case gator::CommandCode::DeliverXml:
            handle_deliver(cmd);
            return true;
        case gator::CommandCode::ApcStart:
            return handle_start();
        case gator::CommandCode::ApcStop:
            if (capture_running()) {
                stop_capture("stopped by client");  // flush, end of sequence, close
            } else {
                reply(ResponseCode::ApcData);  // nothing captured: just the end of sequence
                close_after_drain();
            }
            return true;
        case gator::CommandCode::Disconnect:
            stop_capture("client disconnected");
            return false;
        case gator::CommandCode::Ping:
            reply(ResponseCode::Ack);
            return true;
    }
    reply(ResponseCode::Nak, "unknown command " + std::to_string(cmd.code));
    return true;
}

void Connection::handle_request(const gator::Command& cmd) {
    auto req = xml::parse_request(cmd.text());
    if (!req) {
        reply(ResponseCode::Nak, req.error().to_string());
        return;
    }
    switch (*req) {
        case xml::RequestType::Events:
            reply(ResponseCode::Xml, service_.events_xml());
            break;
        case xml::RequestType::Configuration:
            reply(ResponseCode::Xml, service_.configuration_xml());
            break;
        case xml::RequestType::Counters:
            reply(ResponseCode::Xml, service_.counters_xml());
            break;
        case xml::RequestType::Defaults:
            reply(ResponseCode::Xml, service_.defaults_xml());
            break;
        case xml::RequestType::Captured:
            prepared_ = service_.prepare_counters();
            reply(ResponseCode::Xml, captured_document(service_.collectors(), settings_, *prepared_,
                                                       framing_, CaptureOrigin::Live));
            break;
    }
}

void Connection::handle_deliver(const gator::Command& cmd) {
    switch (xml::classify_delivered(cmd.text())) {
        case xml::DeliveredKind::Session: {
            auto s = xml::parse_session(cmd.text());
            if (!s) return reply(ResponseCode::Nak, s.error().to_string());
            settings_ = std::move(s).value();
            return reply(ResponseCode::Ack);
        }
        case xml::DeliveredKind::Configuration: {
            auto c = xml::parse_configuration(cmd.text());
            if (!c) return reply(ResponseCode::Nak, c.error().to_string());
            if (Status st = service_.deliver_configuration(std::move(c).value()); !st)
                return reply(ResponseCode::Nak, st.error().to_string());
            prepared_.reset();
            return reply(ResponseCode::Ack);
        }
        case xml::DeliveredKind::Other:
            break;
    }
    reply(ResponseCode::Nak, "unsupported document: expected <session> or <configurations>");
}

bool Connection::handle_start() {
    if (service_.capture_running()) {
        fatal("capture in progress");
        return true;
    }
    model::CaptureCounters counters = prepared_ ? *prepared_ : service_.prepare_counters();
    if (perf_framing()) return start_perf(counters);
    std::weak_ptr<Connection> weak = weak_from_this();
    auto started = service_.start_capture(socket_.get_executor(), settings_, std::move(counters),
                                          sink_, [weak](const std::string& reason) {
                                              if (auto self = weak.lock())
                                                  self->on_capture_ended(reason);
                                          });
    if (!started) {
        fatal("capture failed to start: " + started.error().to_string());
        return true;
    }
    capture_ = std::move(started).value();
    return true;
}

void Connection::on_capture_ended(const std::string& reason) {
    spdlog::info("{}: capture ended: {}", peer_, reason);
    close_after_drain();
}

}  // namespace apcgate::daemon

namespace apcgate::daemon {

bool Connection::perf_framing() const {
    return framing_ == Framing::Perf && service_.collectors().inputs.empty();
}

bool Connection::capture_running() const {
    return (capture_ && capture_->running()) || (perf_capture_ && perf_capture_->running());
}

void Connection::stop_capture(const std::string& reason) {
    if (capture_ && capture_->running()) capture_->stop(reason);
    if (perf_capture_ && perf_capture_->running()) perf_capture_->stop(reason);
}

bool Connection::start_perf(const model::CaptureCounters& counters) {
    std::weak_ptr<Connection> weak = weak_from_this();
    auto started =
        PerfLiveCapture::start(socket_.get_executor(), service_.live_collectors(), settings_,
                               counters, sink_, [weak](const std::string& reason) {
                                   if (auto self = weak.lock()) self->on_capture_ended(reason);
                               });
    if (!started) {
        fatal("capture failed to start: " + started.error().to_string());
        return true;
    }
    perf_capture_ = std::move(started).value();
    return true;
}

}  // namespace apcgate::daemon
