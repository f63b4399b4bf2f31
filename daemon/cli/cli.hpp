// The subcommands behind `apcgate`: each registers its options on the command line
// (subcommand.hpp) and runs with them; main() returns what the run_* function returns (see
// daemon/service/exit_codes.hpp); nothing else exits.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "daemon/capture/collectors_setup.hpp"
#include "daemon/server/serve_options.hpp"
#include "daemon/service/framing.hpp"
#include "protocol/model/capture_settings.hpp"

namespace apcgate::daemon {

struct RecordOptions {
    std::string log_level = "info";
    LiveCollectorOptions collectors;
    Framing framing = Framing::Gator;
    std::filesystem::path output;
    int duration_s = 0;
    std::filesystem::path session_file;
    std::filesystem::path config_file;
    std::optional<model::SampleRate> sample_rate;
    bool force = false;
    std::vector<std::string> command;  // run this and capture until it exits
    std::vector<std::int32_t> pids;    // --pid: follow these processes until they exit
};

struct InspectOptions {
    std::filesystem::path capture;
    bool json = false;
    bool dump = false;
};

// Where `report` and `diff` find the symbols of a capture's images (analysis/image_symbols.hpp).
struct SymbolArgs {
    std::vector<std::filesystem::path> binary_dirs;                      // --binary-dir
    std::filesystem::path sysroot;                                       // --sysroot
    std::vector<std::filesystem::path> debug_dirs = {"/usr/lib/debug"};  // --debug-dir
};

struct ReportOptions {
    std::filesystem::path capture;
    SymbolArgs symbols;
    std::optional<std::int32_t> pid;  // --pid: functions and stacks of this process only
    std::optional<std::size_t> top;   // --top: rows per table (text default 20; else all)
    bool json = false;
    bool csv = false;
    bool folded = false;
};

struct DiffOptions {
    std::filesystem::path before, after;
    SymbolArgs symbols;
    std::optional<std::int32_t> pid;
    std::optional<std::size_t> top;
    bool json = false;
    bool csv = false;
    std::vector<std::string> fail_if;  // --fail-if rules (analysis/fail_rule.hpp)
};

struct ConvertOptions {
    std::vector<std::string> inputs;  // PATH or fmt:PATH
    std::filesystem::path output;
    std::string format;                           // --format: forces every input
    std::vector<std::filesystem::path> binaries;  // --binary: XRay symbols (binary_for_log)
    // --debug-dir: where a stripped --binary's debug file may be (debug_file.hpp)
    std::vector<std::filesystem::path> debug_dirs = {"/usr/lib/debug"};
    bool json = false;
    bool force = false;
    std::string log_level = "warn";
};

int run_serve(const ServeOptions& options);
int run_record(const RecordOptions& options);
int run_convert(const ConvertOptions& options, std::ostream& out, std::ostream& err);
int run_inspect(const InspectOptions& options, std::ostream& out, std::ostream& err);
int run_report(const ReportOptions& options, std::ostream& out, std::ostream& err);
int run_diff(const DiffOptions& options, std::ostream& out, std::ostream& err);

}  // namespace apcgate::daemon
