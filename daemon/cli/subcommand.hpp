// One subcommand of `apcgate`: its options registered on the command line beside the function
// that runs it, in the subcommand's own file. The options live as long as the returned
// Subcommand (its `run` owns them); main() only registers every subcommand, parses, and runs the
// one given (`serve` when none is).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace apcgate::daemon {

struct Subcommand {
    CLI::App* app = nullptr;   // parsed when `*app` is true
    std::function<int()> run;  // the exit code (daemon/service/exit_codes.hpp)
};

Subcommand add_serve_command(CLI::App& parent);
Subcommand add_record_command(CLI::App& parent);
Subcommand add_inspect_command(CLI::App& parent);
Subcommand add_report_command(CLI::App& parent);
Subcommand add_diff_command(CLI::App& parent);
Subcommand add_convert_command(CLI::App& parent);

}  // namespace apcgate::daemon
