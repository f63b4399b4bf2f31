#include "collectors/annotate/text_inputs.hpp"

#include <sys/socket.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <vector>

namespace apcgate::collectors::annotate {

namespace {
// Anyone may write annotations, as anyone may connect the library's abstract sockets; only the
// owner may read.
constexpr mode_t kTextMode = 0622;
constexpr std::uint32_t kReadable = EPOLLIN | EPOLLRDHUP;
}  // namespace

TextInputs::~TextInputs() {
    if (fifo_created_) ::unlink(config_.text_fifo.c_str());
    if (socket_created_) ::unlink(config_.text_socket.c_str());
}

void TextInputs::open() {
    if (!config_.text_fifo.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(config_.text_fifo.parent_path(), ec);
        if (Status st = make_fifo(config_.text_fifo, kTextMode); !st) {
            log_.warn("annotations: text FIFO unavailable: " + st.error().message);
        } else {
            fifo_created_ = true;
            open_fifo();
            log_.info("annotations: text form at " + config_.text_fifo.string() + " (FIFO)");
        }
    }
    if (!config_.text_socket.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(config_.text_socket.parent_path(), ec);
        auto fd = listen_unix_path(config_.text_socket, kTextMode, 16);
        if (!fd) {
            log_.warn("annotations: text socket unavailable: " + fd.error().message);
        } else {
            socket_created_ = true;
            listener_ = std::move(fd).value();
            reactor_.watch(listener_.get(), Role::TextListener, EPOLLIN);
            log_.info("annotations: text form at " + config_.text_socket.string() +
                      " (Unix socket; lines carry the writer's pid)");
        }
    }
}

// Opened for reading only, so the last writer's close is an end of file that ends a line
// without '\n'; the FIFO is then reopened for the next writers.
void TextInputs::open_fifo() {
    auto fd = open_fifo_reader(config_.text_fifo);
    if (!fd) {
        log_.warn("annotations: " + fd.error().message);
        return;
    }
    fifo_ = std::move(fd).value();
    reactor_.watch(fifo_.get(), Role::TextFifo, EPOLLIN);
    fifo_paused_ = false;
}

bool TextInputs::hand_over_full() const {
    return capturing_ && handover_.pending_bytes() >= pending_limit_;
}

void TextInputs::deliver(TextLine line, std::int32_t tid) {
    if (!capturing_) {
        stats_.update([](AnnotateStats& s) { ++s.counts[AnnotateStat::TextDiscarded]; });
        return;
    }
    if (line.binary) {
        stats_.update([](AnnotateStats& s) { ++s.counts[AnnotateStat::TextBad]; });
        log_.client_warn("annotations: text line at offset " + std::to_string(line.offset) +
                         " starts with 0x1C (a binary annotation escape): not forwarded");
        return;
    }
    const std::size_t bytes = line.text.size();
    stats_.update([&](AnnotateStats& s) {
        ++s.counts[AnnotateStat::TextLines];
        if (line.truncated) ++s.counts[AnnotateStat::TextTruncated];
    });
    handover_.push_annotation(tid, model::TextAnnotation{line.colour, std::move(line.text)}, bytes);
}

// Reads on until the descriptor is drained (EAGAIN) or ends, a few buffers at most: an end of
// file right behind the data must be seen now. A FIFO reopened after its last writer left can
// hold the next writer's lines and no writer any more (it opened, wrote and closed before the
// reopen); epoll reports no hang-up on a descriptor opened after that writer came, so nothing
// would wake the loop again for the end of its last line, which waited for the next writer.
bool TextInputs::read_lines(int fd, TextLineTokenizer& lines, std::int32_t tid) {
    constexpr int kReadsPerWake = 4;  // a flooding writer still yields to the loop
    std::uint8_t buf[16 * 1024];
    for (int reads = 0; reads < kReadsPerWake; ++reads) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) return true;
        if (n <= 0) {
            if (auto last = lines.finish()) deliver(std::move(*last), tid);
            return false;
        }
        std::span<const std::uint8_t> in(buf, static_cast<std::size_t>(n));
        while (auto line = lines.next(in)) deliver(std::move(*line), tid);
    }
    return true;
}

void TextInputs::on_fifo() {
    if (!fifo_.valid() || fifo_paused_) return;
    if (hand_over_full()) {
        reactor_.change(fifo_.get(), Role::TextFifo, 0);
        fifo_paused_ = true;
        return;
    }
    if (!read_lines(fifo_.get(), fifo_lines_, config_.fifo_tid)) reopen_fifo();
}

// The last writer closed. The next may already have opened the FIFO (this descriptor kept it
// open) and even written and closed: the new descriptor is opened before this one is closed,
// so the FIFO never goes without a reader. Its pipe, and what such a writer wrote into it, then
// stays and is read from the new one; closed first, the pipe would be freed with those lines
// (or a write in that moment would fail with EPIPE).
void TextInputs::reopen_fifo() {
    const Fd last = std::move(fifo_);
    reactor_.forget(last.get());
    open_fifo();
}

void TextInputs::on_listener() {
    int err = 0;
    auto fd = accept_connection(listener_.get(), err);
    if (!fd) {
        if (err != EAGAIN && err != EINTR && err != ECONNABORTED) {
            log_.warn(std::string("annotations: accept failed on the text socket: ") +
                      std::strerror(err));
            reactor_.back_off(listener_.get(), Role::TextListener);
        }
        return;
    }
    if (clients_.size() >= config_.max_text_clients) {
        log_.client_warn("annotations: refused a text socket connection: " +
                         std::to_string(clients_.size()) + " already open");
        return;
    }
    const int key = fd->get();
    // The connecting process's pid is its main thread's tid: the best thread id a script has.
    const std::int32_t tid = peer_pid(key).value_or(0);
    reactor_.watch(key, Role::TextClient, kReadable);
    clients_.emplace(
        key, Client{std::move(fd).value(), TextLineTokenizer(config_.max_text_bytes), tid, false});
    stats_.update([](AnnotateStats& s) { ++s.counts[AnnotateStat::TextClients]; });
}

void TextInputs::on_client(int fd) {
    auto it = clients_.find(fd);
    if (it == clients_.end() || it->second.paused) return;
    Client& c = it->second;
    if (hand_over_full()) {
        reactor_.change(fd, Role::TextClient, 0);
        c.paused = true;
        return;
    }
    if (!read_lines(fd, c.lines, c.tid)) {
        reactor_.forget(fd);
        clients_.erase(it);
    }
}

void TextInputs::drain() {
    // What writers had written by now (a FIFO holds 64 KiB: four reads), whatever the hand-over
    // holds: the capture takes it all at its end.
    const std::size_t limit = pending_limit_;
    pending_limit_ = std::numeric_limits<std::size_t>::max();
    after_take();
    std::vector<int> fds;
    for (const auto& [fd, c] : clients_) fds.push_back(fd);
    for (int round = 0; round < 4; ++round) {
        if (fifo_.valid()) on_fifo();
        for (int fd : fds) on_client(fd);
    }
    pending_limit_ = limit;
}

void TextInputs::after_take() {
    if (fifo_paused_ && fifo_.valid()) {
        reactor_.change(fifo_.get(), Role::TextFifo, EPOLLIN);
        fifo_paused_ = false;
    }
    for (auto& [fd, c] : clients_) {
        if (!c.paused) continue;
        reactor_.change(fd, Role::TextClient, kReadable);
        c.paused = false;
    }
}

}  // namespace apcgate::collectors::annotate
