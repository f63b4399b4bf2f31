// Options several subcommands take alike, registered the same way everywhere.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <vector>

#include "daemon/cli/cli.hpp"

namespace apcgate::daemon {

// --log-level (serve, record).
void add_log_level_option(CLI::App* app, std::string& log_level);
// --proc-root, --sys-root and the annotation options (serve, record).
void add_live_collector_options(CLI::App* app, LiveCollectorOptions& c);
// --binary and --debug-dir (convert, serve): the XRay logs' symbols.
void add_xray_symbol_options(CLI::App* app, std::vector<std::filesystem::path>& binaries,
                             std::vector<std::filesystem::path>& debug_dirs);
// --binary-dir, --sysroot, --debug-dir (report, diff): where the capture's images are read.
void add_image_symbol_options(CLI::App* app, SymbolArgs& s);

}  // namespace apcgate::daemon
