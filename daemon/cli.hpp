// The subcommands behind `apcgate`. main() parses the command line into these options and
// returns what the run_* function returns (see exit_codes.hpp); nothing else exits.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "daemon/server.hpp"
#include "protocol/model/capture_settings.hpp"

namespace apcgate::daemon {

struct CommonOptions {
    std::string log_level = "info";
    std::filesystem::path proc_root = "/proc";  // injectable OS roots (tests use fake trees)
    std::filesystem::path sys_root = "/sys";
};

struct ServeOptions {
    CommonOptions common;
    ServerOptions server;
    std::filesystem::path state_dir;  // empty: default_state_dir()
};

struct RecordOptions {
    CommonOptions common;
    std::filesystem::path output;
    int duration_s = 0;
    std::filesystem::path session_file;
    std::filesystem::path config_file;
    std::optional<model::SampleRate> sample_rate;
    bool force = false;
    std::vector<std::string> command;  // run this and capture until it exits
};

struct InspectOptions {
    std::filesystem::path capture;
    bool json = false;
    bool dump = false;
};

// The collectors of this target (currently /proc and /sys), declared and described.
CollectorSet make_collectors(const CommonOptions& options);

int run_serve(const ServeOptions& options);
int run_record(const RecordOptions& options);
int run_inspect(const InspectOptions& options, std::ostream& out, std::ostream& err);

}  // namespace apcgate::daemon
