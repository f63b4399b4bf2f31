#include <spawn.h>
#include <spdlog/spdlog.h>
#include <sys/wait.h>

#include <asio/io_context.hpp>
#include <asio/signal_set.hpp>
#include <csignal>
#include <fstream>
#include <sstream>

#include "daemon/apc_directory.hpp"
#include "daemon/cli.hpp"
#include "daemon/exit_codes.hpp"
#include "xml/documents.hpp"

extern char** environ;  // NOLINT: POSIX

namespace apcgate::daemon {

namespace {

Result<std::string> read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error::at("cannot open").in_input(path.string());
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

pid_t spawn(const std::vector<std::string>& command) {
    std::vector<char*> argv;
    for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));  // NOLINT
    argv.push_back(nullptr);
    pid_t pid = -1;
    if (::posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return -1;
    return pid;
}

}  // namespace

int run_record(const RecordOptions& o) {
    auto settings = settings_for(o);
    if (!settings) {
        spdlog::error("{}", settings.error().to_string());
        return kExitInvalidInput;
    }
    CollectorSet collectors = make_collectors(o.common);
    auto config = configuration_for(o, collectors);
    if (!config) {
        spdlog::error("{}", config.error().to_string());
        return kExitInvalidInput;
    }
    CaptureService service(collectors, std::nullopt);
    (void)service.deliver_configuration(*config);
    model::CaptureCounters counters = service.prepare_counters();
    for (const auto& name : counters.ignored()) spdlog::warn("counter {} is not available here", name);

    auto dir = ApcDirectory::create(o.output, o.force);
    if (!dir) {
        spdlog::error("{}", dir.error().to_string());
        return dir.error().message.rfind("already exists", 0) == 0 ? kExitOutputExists : kExitFailure;
    }
    ApcDirectory& sink = **dir;
    for (const auto& [name, text] :
         {std::pair<const char*, std::string>{"captured.xml", service.captured_xml(*settings, counters, true)},
          {"session.xml", settings->session_xml},
          {"events.xml", service.events_xml()}}) {
        if (Status st = sink.write_document(name, text); !st) {
            spdlog::error("{}", st.error().to_string());
            return kExitFailure;
        }
    }

    asio::io_context io(1);
    asio::signal_set signals(io, SIGINT, SIGTERM, SIGCHLD);
    pid_t child = -1;
    std::shared_ptr<LiveCapture> capture;
    std::function<void(const std::error_code&, int)> on_signal = [&](const std::error_code& ec, int sig) {
        if (ec) return;
        if (sig == SIGCHLD) {
            int status = 0;
            if (child > 0 && ::waitpid(child, &status, WNOHANG) == child) {
                child = -1;
                if (capture) capture->stop("command exited");
            }
        } else if (capture) {
            capture->stop(sig == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)");
        }
        if (capture && capture->running()) signals.async_wait(on_signal);
    };
    signals.async_wait(on_signal);

    auto started = service.start_capture(io.get_executor(), *settings, counters, sink,
                                         [&](const std::string&) {
                                             std::error_code ec;
                                             signals.cancel(ec);
                                         });
    if (!started) {
        spdlog::error("{}", started.error().to_string());
        return kExitFailure;
    }
    capture = std::move(started).value();
    if (!o.command.empty()) {
        child = spawn(o.command);
        if (child < 0) {
            spdlog::error("cannot run '{}'", o.command.front());
            capture->stop("command failed to start");
        }
    }
    spdlog::info("recording into {}{}", o.output.string(),
                 o.duration_s > 0 ? " for " + std::to_string(o.duration_s) + " s" : " (Ctrl-C stops)");
    io.run();
    if (!sink.status()) {
        spdlog::error("{}", sink.status().error().to_string());
        return kExitFailure;
    }
    const auto totals = capture->engine().totals();
    spdlog::info("wrote {}: {} frames, {} bytes", o.output.string(), totals.frames, totals.bytes);
    return kExitOk;
}

}  // namespace apcgate::daemon
