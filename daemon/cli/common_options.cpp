#include "daemon/cli/common_options.hpp"

namespace apcgate::daemon {

namespace {

constexpr const char* kBinaryHelp =
    "XRay: the instrumented executable, for function names (repeatable: each log is named by "
    "the binary its file name gives, <base><program>.XXXXXX)";
constexpr const char* kDebugDirHelp =
    "XRay: where a stripped --binary's debug file may be, as DIR/.build-id/NN/REST.debug or "
    "DIR/BINARY_DIR/DEBUGLINK (repeatable; beside the binary and its .debug/ are looked at too)";

}  // namespace

void add_log_level_option(CLI::App* app, std::string& log_level) {
    app->add_option("--log-level", log_level, "trace, debug, info, warn, error or off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}))
        ->capture_default_str();
}

void add_live_collector_options(CLI::App* app, LiveCollectorOptions& c) {
    app->add_option("--proc-root", c.proc_root, "Where /proc is (for tests and containers)")
        ->capture_default_str();
    app->add_option("--sys-root", c.sys_root, "Where /sys is")->capture_default_str();
    app->add_flag_callback(
        "--no-annotate", [&c] { c.annotate = false; },
        "Do not collect application annotations (Arm's annotation library, the text form)");
    app->add_option("--annotate-fifo", c.annotate_fifo,
                    "FIFO for one-line text annotations (a Unix socket PATH.sock beside it); "
                    "default /run/apcgate/annotate as root, else $XDG_RUNTIME_DIR/apcgate/"
                    "annotate; 'none': no text form");
    app->add_option("--annotate-socket-name", c.annotate_socket_name,
                    "Abstract socket Arm's annotation library connects to (NAME-parent is its "
                    "parent socket); change it only to run two daemons or tests")
        ->capture_default_str();
    app->add_option("--annotate-tcp-port", c.annotate_tcp_port,
                    "Loopback TCP port of annotation parent connections (data: PORT+1); 0: none")
        ->capture_default_str();
}

// --binary and --debug-dir (convert, serve): one value per occurrence, repeat the option for
// more; as list options they would take the arguments after them (the inputs) as their values.
void add_xray_symbol_options(CLI::App* app, std::vector<std::filesystem::path>& binaries,
                             std::vector<std::filesystem::path>& debug_dirs) {
    app->add_option("--binary", binaries, kBinaryHelp)
        ->check(CLI::ExistingFile)
        ->allow_extra_args(false);
    app->add_option("--debug-dir", debug_dirs, kDebugDirHelp)
        ->capture_default_str()
        ->allow_extra_args(false);
}

// --binary-dir, --sysroot, --debug-dir (report, diff): where the capture's images are read.
void add_image_symbol_options(CLI::App* app, SymbolArgs& s) {
    app->add_option("--binary-dir", s.binary_dirs,
                    "Read a sampled image from DIR/BASENAME instead of the path the capture names "
                    "(repeatable; for captures taken on another machine)")
        ->allow_extra_args(false);
    app->add_option("--sysroot", s.sysroot,
                    "Read a sampled image from DIR/PATH instead of PATH (the target's root "
                    "file system copied here)");
    app->add_option("--debug-dir", s.debug_dirs,
                    "Where a stripped image's debug file may be, as DIR/.build-id/NN/REST.debug "
                    "or DIR/IMAGE_DIR/DEBUGLINK (repeatable)")
        ->capture_default_str()
        ->allow_extra_args(false);
}

}  // namespace apcgate::daemon
