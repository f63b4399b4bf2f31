// libbabeltrace2 reports a failure as a chain of causes on the calling thread (deepest first:
// the CTF decoder's own words, then each layer that passed it up). These helpers turn that chain
// into an apcgate Error so the trace path and what babeltrace said reach the user, and capture
// babeltrace's error log lines for the one case where the causes say too little (a metadata
// parse error is only logged, its cause just says "Cannot create trace").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "protocol/wire/result.hpp"

namespace apcgate::collectors::ctf {

// Takes (and clears) the current thread's babeltrace error: "what: cause; cause; ...", with
// `input` set to the data stream file that failed when a cause names one. Returns an error
// saying only `what` when babeltrace recorded none. The kind is the caller's: babeltrace's
// causes do not say whether the trace or the graph was at fault.
Error take_bt_error(ErrorKind kind, std::string_view what);

// The messages of babeltrace's log lines at level E or F in `log`, without the date, pid and
// source-location prefix, in the order they were written; at most `limit` of them.
std::vector<std::string> bt_log_errors(std::string_view log, std::size_t limit);

// Sends file descriptor 2 to a temporary file for its lifetime, so the log lines a library
// writes there can be read back; restores it (and copies back lines that are not babeltrace's)
// when destroyed. Used around the creation of the trace sources, where the metadata is parsed.
class StderrCapture {
  public:
    StderrCapture();
    ~StderrCapture();
    StderrCapture(const StderrCapture&) = delete;
    StderrCapture& operator=(const StderrCapture&) = delete;

    // Everything written so far (at most 1 MiB of it).
    [[nodiscard]] std::string text() const;

  private:
    int saved_ = -1;
    int file_ = -1;
};

}  // namespace apcgate::collectors::ctf
