#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "daemon/capture/apc_directory.hpp"
#include "daemon/capture/capture_documents.hpp"
#include "daemon/cli/cli.hpp"
#include "daemon/cli/common_options.hpp"
#include "daemon/cli/interrupt_flag.hpp"
#include "daemon/cli/record_loop.hpp"
#include "daemon/cli/subcommand.hpp"
#include "daemon/service/exit_codes.hpp"
#include "daemon/service/heap_policy.hpp"
#include "daemon/service/log_text.hpp"
#include "daemon/service/logging.hpp"
#include "xml/documents.hpp"

namespace apcgate::daemon {

namespace {

Result<std::string> read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error::at(ErrorKind::Io, "cannot open").in_input(path.string());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Session settings from --session, then the flags that override them.
Result<model::CaptureSettings> settings_for(const RecordOptions& o) {
    model::CaptureSettings settings;
    if (!o.session_file.empty()) {
        auto text = read_text(o.session_file);
        if (!text) return std::move(text).take_error();
        auto parsed = xml::parse_session(*text);
        if (!parsed) return std::move(parsed).take_error().in_input(o.session_file.string());
        settings = std::move(parsed).value();
    }
    if (o.duration_s > 0) settings.duration_s = o.duration_s;
    if (o.sample_rate) settings.sample_rate = *o.sample_rate;
    if (settings.session_xml.empty()) settings.session_xml = xml::write_session(settings);
    return settings;
}

Result<model::Configuration> configuration_for(const RecordOptions& o, const CollectorSet& c) {
    if (o.config_file.empty()) return c.catalog.defaults();
    auto text = read_text(o.config_file);
    if (!text) return std::move(text).take_error();
    auto parsed = xml::parse_configuration(*text);
    if (!parsed) return std::move(parsed).take_error().in_input(o.config_file.string());
    return std::move(parsed).value();
}

// The command's executable, found as execvp would (a name without '/' is looked up in PATH).
std::optional<std::string> find_executable(const std::string& name) {
    if (name.find('/') != std::string::npos)
        return ::access(name.c_str(), X_OK) == 0 ? std::optional<std::string>(name) : std::nullopt;
    const char* path = ::getenv("PATH");
    std::istringstream dirs(path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return std::nullopt;
}

// `record -- CMD` runs CMD as a child held at a gate (a pipe it reads one byte from) until the
// capture is started, so its perf events are open before it runs: they are opened on the child
// with enable_on_exec and start counting at its exec, and nothing it does is missed.
class GatedChild {
  public:
    GatedChild() = default;
    GatedChild(const GatedChild&) = delete;
    GatedChild& operator=(const GatedChild&) = delete;
    ~GatedChild() { abandon(); }

    Status spawn(const std::vector<std::string>& command) {
        const auto exe = find_executable(command.front());
        if (!exe)
            return Error::at(ErrorKind::Usage,
                             "cannot run '" + command.front() + "': not found or not executable");
        std::vector<char*> argv;
        for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));  // NOLINT
        argv.push_back(nullptr);
        int gate[2];
        if (::pipe2(gate, O_CLOEXEC) != 0)
            return Error::at(ErrorKind::Io, std::string("pipe: ") + std::strerror(errno));
        pid_ = ::fork();
        if (pid_ < 0) {
            ::close(gate[0]);
            ::close(gate[1]);
            return Error::at(ErrorKind::Io, std::string("fork: ") + std::strerror(errno));
        }
        if (pid_ == 0) {  // the child: only async-signal-safe calls until exec
            ::close(gate[1]);
            char go = 0;
            ssize_t n;
            do n = ::read(gate[0], &go, 1);
            while (n < 0 && errno == EINTR);
            if (n != 1) ::_exit(127);  // the recorder gave up before starting
            ::execv(exe->c_str(), argv.data());
            ::_exit(127);
        }
        ::close(gate[0]);
        gate_ = gate[1];
        return {};
    }
    // Lets the child exec.
    bool release() {
        const char go = 'g';
        const bool ok = ::write(gate_, &go, 1) == 1;
        ::close(gate_);
        gate_ = -1;
        released_ = true;
        return ok;
    }
    // Reaps the child if it has exited; true once it has.
    bool reap() {
        if (pid_ <= 0) return true;
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) != pid_) return false;
        pid_ = -1;
        return true;
    }
    [[nodiscard]] pid_t pid() const { return pid_; }

  private:
    // The capture never started: close the gate (the child exits without running CMD). A
    // command already running is the user's: it is left to finish on its own.
    void abandon() {
        if (gate_ >= 0) ::close(gate_);
        gate_ = -1;
        if (pid_ > 0 && !released_ && !reap()) ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }
    pid_t pid_ = -1;
    int gate_ = -1;
    bool released_ = false;
};

// Whether a followed process still runs (a zombie has exited; its parent has not reaped it).
bool process_alive(const std::filesystem::path& proc_root, std::int32_t pid) {
    std::ifstream in(proc_root / std::to_string(pid) / "stat");
    std::string stat;
    if (!std::getline(in, stat)) return false;
    const auto close = stat.rfind(')');
    if (close == std::string::npos || close + 2 >= stat.size()) return false;
    const char state = stat[close + 2];
    return state != 'Z' && state != 'X' && state != 'x';
}

// What to follow: a command (spawned now, held at its gate until the capture runs), running
// processes, or (neither) the whole system. An exit code when that cannot be.
std::optional<int> choose_followed(const RecordOptions& o, GatedChild& child,
                                   LiveCollectorOptions& collectors) {
    if (!o.command.empty()) {
        if (Status st = child.spawn(o.command); !st) {
            spdlog::error("{}", st.error().to_string());
            return kExitFailure;
        }
        collectors.follow_pids = {child.pid()};
        collectors.follow_from_exec = true;
    } else if (!o.pids.empty()) {
        for (const std::int32_t pid : o.pids) {
            if (!process_alive(o.collectors.proc_root, pid)) {
                spdlog::error("--pid {}: no such process", pid);
                return kExitUsage;
            }
        }
        collectors.follow_pids = o.pids;
    }
    return std::nullopt;
}

}  // namespace

int run_record(const RecordOptions& o) {
    if (!use_capture_heap_policy()) spdlog::debug("glibc kept its own heap policy");
    // From here until the event loop's own handlers take over, a SIGINT or SIGTERM is kept and
    // ends the capture once it has begun.
    const InterruptFlag stop_during_set_up;
    auto settings = settings_for(o);
    if (!settings) {
        spdlog::error("{}", settings.error().to_string());
        return kExitInvalidInput;
    }
    ::signal(SIGPIPE, SIG_IGN);  // a child that vanished before its gate opened
    LiveCollectorOptions followed = o.collectors;
    followed.capture_follows_probe = true;
    followed.exits_after_capture = true;
    GatedChild child;
    if (const auto failed = choose_followed(o, child, followed)) return *failed;
    CollectorSet collectors = make_live_collectors(followed, o.framing);
    auto config = configuration_for(o, collectors);
    if (!config) {
        spdlog::error("{}", config.error().to_string());
        return kExitInvalidInput;
    }
    CaptureService service(collectors, std::nullopt);
    (void)service.deliver_configuration(*config);
    model::CaptureCounters counters = service.prepare_counters();
    if (!counters.ignored().empty()) {
        spdlog::warn("{} counters are not available here: {}", counters.ignored().size(),
                     loggable_examples(counters.ignored()));
    }

    auto dir = ApcDirectory::create(o.output, o.force, Durability::Synced);
    if (!dir) {
        spdlog::error("{}", dir.error().to_string());
        return dir.error().is(ErrorKind::Refused) ? kExitOutputExists : kExitFailure;
    }
    ApcDirectory& sink = **dir;
    const CaptureDocuments documents =
        capture_documents(collectors, *settings, counters, o.framing, CaptureOrigin::Record);
    if (Status st = sink.write_documents(documents); !st) {
        spdlog::error("{}", st.error().to_string());
        return kExitFailure;
    }

    const RecordCommandHooks command{
        [&] { return o.command.empty() || child.release(); },
        // The command has exited, or every --pid process has (false with neither).
        [&] {
            if (!o.command.empty()) return child.reap();
            const auto alive = [&](std::int32_t pid) {
                return process_alive(o.collectors.proc_root, pid);
            };
            return !o.pids.empty() && std::none_of(o.pids.begin(), o.pids.end(), alive);
        },
        [&] { return stop_during_set_up.signal(); }};
    if (o.framing == Framing::Perf)
        return record_perf_framing(o, collectors, *settings, counters, sink, command);
    return record_gator_framing(o, service, *settings, counters, sink, command);
}

namespace {

// The command line as parsed: --sample-rate as its name.
struct RecordCommandLine {
    RecordOptions options;
    std::string sample_rate;
};

const std::map<std::string, model::SampleRate> kRates{{"none", model::SampleRate::None},
                                                      {"low", model::SampleRate::Low},
                                                      {"normal", model::SampleRate::Normal},
                                                      {"high", model::SampleRate::High}};

}  // namespace

Subcommand add_record_command(CLI::App& parent) {
    auto line = std::make_shared<RecordCommandLine>();
    RecordOptions& record = line->options;
    auto* record_cmd = parent.add_subcommand(
        "record", "Capture locally into an .apc directory: record -o run.apc [-d S] [-- CMD ARGS]");
    add_log_level_option(record_cmd, record.log_level);
    add_live_collector_options(record_cmd, record.collectors);
    record_cmd->add_option("-o,--output", record.output, "Capture directory to create (NAME.apc)")
        ->required();
    record_cmd->add_option("-d,--duration", record.duration_s, "Stop after this many seconds")
        ->check(CLI::NonNegativeNumber);
    record_cmd->add_option("--session", record.session_file, "Session XML to use")
        ->check(CLI::ExistingFile);
    record_cmd->add_option("--config", record.config_file, "Configuration XML (counters) to use")
        ->check(CLI::ExistingFile);
    record_cmd->add_option("--sample-rate", line->sample_rate, "none, low, normal or high")
        ->check(CLI::IsMember({"none", "low", "normal", "high"}));
    record_cmd->add_flag("-f,--force", record.force,
                         "Overwrite the capture files of an existing directory");
    auto* record_command = record_cmd->add_option(
        "command", record.command,
        "Command to run (after --); only it, its threads and its children are captured, from "
        "its exec, and the capture stops when it exits");
    record_cmd
        ->add_option("--pid", record.pids,
                     "Follow these running processes (PID[,PID...]: their threads and new "
                     "children) instead of the whole system; stops when they have all exited")
        ->delimiter(',')
        ->check(CLI::PositiveNumber)
        ->excludes(record_command);
    record_cmd
        ->add_option("--framing", record.framing,
                     "gator (default): the documented v6.8 frames (type=\"Gator\"); perf: the "
                     "frames gatord 9.x writes (type=\"Perf\", the kernel's perf records "
                     "forwarded as they are)")
        ->transform(CLI::CheckedTransformer(
            std::map<std::string, Framing>{{"gator", Framing::Gator}, {"perf", Framing::Perf}}));

    return {record_cmd, [line] {
                RecordOptions& o = line->options;
                setup_logging(o.log_level);
                if (!line->sample_rate.empty()) o.sample_rate = kRates.at(line->sample_rate);
                return run_record(o);
            }};
}

}  // namespace apcgate::daemon
