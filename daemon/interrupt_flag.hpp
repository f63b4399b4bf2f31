// SIGINT and SIGTERM as a request to stop, for a command that runs a loop of its own (`convert`):
// the first one sets a flag the loop checks, so the work done so far is finished properly (the
// capture closed and written, as `record` does on a signal); a second one ends the process at
// once, since the handler gives the signal its default action back when it runs.
#pragma once

namespace apcgate::daemon {

class InterruptFlag {
public:
    InterruptFlag();   // installs the handlers (one InterruptFlag at a time)
    ~InterruptFlag();  // puts the previous ones back
    InterruptFlag(const InterruptFlag&) = delete;
    InterruptFlag& operator=(const InterruptFlag&) = delete;

    // The signal that arrived (SIGINT or SIGTERM), 0 while none has.
    [[nodiscard]] int signal() const;
};

}  // namespace apcgate::daemon
