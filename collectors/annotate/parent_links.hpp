// The library's parent connections: it never writes to them; it blocks reading one byte there
// when a data connection was refused, and any byte means "a capture started, reconnect". The
// abstract Unix listener lives as long as the daemon; the TCP one (127.0.0.1 and ::1) only during
// a capture, like gatord's, whose agent writes a byte to its TCP parent clients and closes them
// at capture end. Runs on the annotation I/O thread only.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "collectors/annotate/annotate_config.hpp"
#include "collectors/annotate/annotate_log.hpp"
#include "collectors/annotate/annotate_stats.hpp"
#include "collectors/annotate/reactor.hpp"

namespace apcgate::collectors::annotate {

class ParentLinks {
  public:
    ParentLinks(Reactor& reactor, StatsBox& stats, Log& log, const AnnotateConfig& config)
        : reactor_(reactor), stats_(stats), log_(log), config_(config) {}

    void open_unix();    // at construction of the source; a failure is logged, not fatal
    void open_tcp();     // capture start
    void notify_all();   // capture start: one byte to every parent client
    void end_capture();  // TCP clients get a byte and are closed; TCP listeners close

    void on_listener(int fd);
    void on_client(int fd);
    [[nodiscard]] std::size_t clients() const { return clients_.size(); }

  private:
    struct Client {
        Fd fd;
        bool tcp = false;
    };
    void close_client(int fd);

    Reactor& reactor_;
    StatsBox& stats_;
    Log& log_;
    const AnnotateConfig& config_;
    Fd unix_listener_;
    std::vector<Fd> tcp_listeners_;
    std::unordered_map<int, Client> clients_;
};

}  // namespace apcgate::collectors::annotate
