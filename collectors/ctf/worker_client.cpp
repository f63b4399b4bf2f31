#include "collectors/ctf/worker_client.hpp"

#include <array>

#include "collectors/ctf/ctf_worker.hpp"

namespace apcgate::collectors::ctf {

namespace {

std::string size_text(std::uint64_t bytes) {
    if (bytes >= (1ULL << 30) && bytes % (1ULL << 30) == 0)
        return std::to_string(bytes >> 30) + " GiB";
    return std::to_string(bytes >> 20) + " MiB";
}

std::string seconds_text(std::chrono::milliseconds ms) {
    if (ms.count() % 1000 == 0) return std::to_string(ms.count() / 1000) + " s";
    return std::to_string(ms.count()) + " ms";
}

}  // namespace

Result<std::unique_ptr<WorkerClient>> WorkerClient::start(const std::filesystem::path& exe,
                                                          const std::vector<std::string>& args) {
    std::vector<std::string> all{std::string(kWorkerCommand)};
    all.insert(all.end(), args.begin(), args.end());
    // Without a directory of its own (no writable temporary directory) the worker still reads
    // every trace that needs no repair.
    auto scratch = ScratchDir::make(ScratchDir::default_parent(), "apcgate-ctf-worker");
    std::vector<std::string> env;
    if (scratch) env.push_back(std::string(kScratchEnv) + "=" + scratch->path().string());
    auto child = ChildProcess::spawn(exe, all, env);
    if (!child) {
        Error e = std::move(child).take_error();
        return std::move(e).while_("starting the CTF worker " + exe.string());
    }
    return std::unique_ptr<WorkerClient>(
        new WorkerClient(scratch ? std::move(*scratch) : ScratchDir(), std::move(*child)));
}

Result<FrameKind> WorkerClient::next(FrameBytes& body, const std::function<std::string()>& doing) {
    const auto idle = worker_idle_limit();
    std::array<std::uint8_t, kFrameHeaderBytes> head{};
    auto status = child_->read_exact(head, idle);
    if (status == ChildProcess::ReadStatus::Ok) {
        auto header = decode_header(head);
        if (!header)
            return failure(
                ErrorKind::Internal,
                "the CTF worker wrote a malformed frame (" + header.error().to_string() + ")",
                doing());
        body.resize(header->body_bytes);
        status = child_->read_exact(body, idle);
        if (status == ChildProcess::ReadStatus::Ok) return header->kind;
    }
    if (status == ChildProcess::ReadStatus::Timeout)
        return failure(ErrorKind::Limit,
                       "libbabeltrace2 made no progress for " + seconds_text(idle), doing());
    if (status == ChildProcess::ReadStatus::Failed)
        return failure(ErrorKind::Io, "the CTF worker's output could not be read", doing());
    return ended(doing());
}

Status WorkerClient::finish(const std::function<std::string()>& doing) {
    const auto ending = child_->wait();
    if (ending.clean) return {};
    return ended(doing());
}

Error WorkerClient::failure(ErrorKind kind, const std::string& what, const std::string& doing) {
    child_->kill();
    child_->wait();
    return Error::at(kind, what + " " + doing + "; the worker was stopped");
}

// The worker's output ended before its end frame (or it exited unclean after it): it died.
Error WorkerClient::ended(const std::string& doing) {
    const auto ending = child_->wait();
    const std::uint64_t limit = worker_memory_limit();
    // Out of address space, glib and C++ allocations abort (or a null pointer is used): the
    // peak resident size near the limit tells it from other crashes.
    if (ending.signal != 0 && ending.max_rss_bytes >= limit / 2)
        return Error::at(ErrorKind::Limit, "libbabeltrace2 used more than its " + size_text(limit) +
                                               " memory limit " + doing + " (" + ending.how + ")");
    // A crash is a bug of libbabeltrace2's (often on a damaged trace) or ours, not a verdict on
    // the trace.
    if (ending.signal != 0)
        return Error::at(ErrorKind::Internal, "libbabeltrace2 " + ending.how + " " + doing);
    return Error::at(ErrorKind::Internal, "the CTF worker " + ending.how + " " + doing +
                                              (ending.clean ? " before its end" : ""));
}

}  // namespace apcgate::collectors::ctf
