// The parent's end of a CTF worker (ctf_worker.hpp): starts it and reads its frames, turning
// every way it can go wrong into one clear error: libbabeltrace2 crashed (the signal), ran out of
// its memory limit, made no progress (the watchdog killed it), exited early, or wrote a frame
// that does not decode. The worker is killed and reaped before the error is returned. Each
// worker gets a private scratch directory (scratch_dir.hpp), removed after it is reaped.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "collectors/ctf/child_process.hpp"
#include "collectors/ctf/scratch_dir.hpp"
#include "collectors/ctf/worker_frames.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::ctf {

class WorkerClient {
  public:
    // Runs `exe __ctf-worker ARGS...`.
    static Result<std::unique_ptr<WorkerClient>> start(const std::filesystem::path& exe,
                                                       const std::vector<std::string>& args);

    // The next frame's kind, its body in `body`. `doing` says what the worker was at, for the
    // error, e.g. "decoding TRACE after 1234 events".
    Result<FrameKind> next(FrameBytes& body, const std::function<std::string()>& doing);
    // After the end frame: reaps the worker; an error if it did not exit cleanly.
    Status finish(const std::function<std::string()>& doing);
    // A frame whose body does not decode (`e`): ends the worker; the error says so.
    Error malformed(const Error& e, const std::string& doing) {
        return failure(ErrorKind::Internal,
                       "the CTF worker wrote a malformed frame (" + e.to_string() + ")", doing);
    }
    // Ends the worker at once (from any thread): next() then fails.
    void kill() { child_->kill(); }

  private:
    WorkerClient(ScratchDir scratch, std::unique_ptr<ChildProcess> child)
        : scratch_(std::move(scratch)), child_(std::move(child)) {}
    Error failure(ErrorKind kind, const std::string& what, const std::string& doing);
    Error ended(const std::string& doing);

    // Declared first: removed after the child (reaped by its destructor) is gone.
    ScratchDir scratch_;
    std::unique_ptr<ChildProcess> child_;
};

}  // namespace apcgate::collectors::ctf
