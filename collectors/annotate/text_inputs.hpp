// The text form for shell scripts: one annotation per line written to a FIFO
// (`echo 'phase 2' > /run/apcgate/annotate`) or to a Unix stream socket beside it, carried as
// the seed's ASCII string annotations (Annotate frames). Both exist as long as the daemon runs
// and are always read, so a writer never blocks; lines that arrive while no capture runs are
// discarded, as the library discards its annotations. The writer of a FIFO cannot be known:
// its lines carry config.fifo_tid (the daemon's pid). A socket client's lines carry its pid
// (SO_PEERCRED). Runs on the annotation I/O thread only.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "collectors/annotate/annotate_config.hpp"
#include "collectors/annotate/annotate_log.hpp"
#include "collectors/annotate/annotate_stats.hpp"
#include "collectors/annotate/handover.hpp"
#include "collectors/annotate/reactor.hpp"
#include "collectors/annotate/text_lines.hpp"

namespace apcgate::collectors::annotate {

class TextInputs {
  public:
    TextInputs(Reactor& reactor, Handover& handover, StatsBox& stats, Log& log,
               const AnnotateConfig& config)
        : reactor_(reactor),
          handover_(handover),
          stats_(stats),
          log_(log),
          config_(config),
          fifo_lines_(config.max_text_bytes) {}
    ~TextInputs();  // removes the FIFO and socket files it created
    TextInputs(const TextInputs&) = delete;
    TextInputs& operator=(const TextInputs&) = delete;

    void open();  // failures are logged: the text form is then unavailable
    void set_capturing(bool on, std::size_t pending_limit = 0) {
        capturing_ = on;
        pending_limit_ = pending_limit;
    }
    void on_fifo();
    void on_listener();
    void on_client(int fd);
    void after_take();  // resume inputs paused while the hand-over was full
    // Capture end: reads what is waiting in every input while the capture still takes it.
    void drain();

  private:
    struct Client {
        Fd fd;
        TextLineTokenizer lines;
        std::int32_t tid = 0;
        bool paused = false;
    };
    void open_fifo();
    void reopen_fifo();
    void deliver(TextLine line, std::int32_t tid);
    // Reads once from fd into the tokenizer; false at end of file or error.
    bool read_lines(int fd, TextLineTokenizer& lines, std::int32_t tid);
    [[nodiscard]] bool hand_over_full() const;

    Reactor& reactor_;
    Handover& handover_;
    StatsBox& stats_;
    Log& log_;
    const AnnotateConfig& config_;
    Fd fifo_;
    TextLineTokenizer fifo_lines_;
    bool fifo_paused_ = false;
    bool fifo_created_ = false;
    Fd listener_;
    bool socket_created_ = false;
    std::unordered_map<int, Client> clients_;
    bool capturing_ = false;
    std::size_t pending_limit_ = 0;
};

}  // namespace apcgate::collectors::annotate
