// SIGINT and SIGTERM as a request to stop, for a command that runs a loop of its own (`convert`):
// the first one sets a flag the loop checks, so the work done so far is finished properly (the
// capture closed and written, as `record` does on a signal); a second one ends the process at
// once, since the handler gives the signal its default action back when it runs. `record` holds
// one while it sets a capture up, before its event loop handles the signals: a Ctrl-C typed then
// stops the capture as soon as it has begun instead of killing the process with the output
// directory half made.
#pragma once

#include <string>

namespace apcgate::daemon {

class InterruptFlag {
  public:
    // Installs the handlers (one InterruptFlag at a time) and unblocks both signals in the
    // calling thread: a parent may have started us with them blocked, and then no stop could
    // ever be asked for (one already pending arrives now).
    InterruptFlag();
    ~InterruptFlag();  // puts the previous ones back
    InterruptFlag(const InterruptFlag&) = delete;
    InterruptFlag& operator=(const InterruptFlag&) = delete;

    // The signal that arrived (SIGINT or SIGTERM), 0 while none has.
    [[nodiscard]] int signal() const;
};

// Why a capture ended on SIGINT or SIGTERM, as the logs and the capture's end say it.
std::string stop_reason(int sig);

}  // namespace apcgate::daemon
