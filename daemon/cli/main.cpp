// apcgate: a capture daemon for Arm Streamline (serve), local captures (record), captures
// validated and summarised (inspect), analysed (report, diff) and other trace formats converted
// (convert). main() registers the subcommands (each in its own file, its options beside its run
// function), parses the command line and returns the subcommand's exit code; it is the only
// place that exits.
#include <CLI/CLI.hpp>
#include <array>
#include <cstdio>
#include <exception>

#include "collectors/ctf/child_process.hpp"
#include "collectors/ctf/ctf_worker.hpp"
#include "daemon/cli/build_commit.hpp"
#include "daemon/cli/subcommand.hpp"
#include "daemon/service/exit_codes.hpp"

using namespace apcgate::daemon;  // NOLINT(google-build-using-namespace): main only

namespace {

int run(int argc, char** argv) {
    // The CTF ingester's worker process (collectors/ctf/ctf_worker.hpp): not a user command.
    if (argc >= 2 && argv[1] == apcgate::collectors::ctf::kWorkerCommand)
        return apcgate::collectors::ctf::run_worker(argc - 2, argv + 2,
                                                    apcgate::collectors::ctf::kWorkerOutputFd);
    CLI::App app{"apcgate: a Gator-protocol capture daemon for Arm Streamline", "apcgate"};
    app.footer(kExitCodesHelp);
    app.set_version_flag("--version", std::string("apcgate ") + APCGATE_VERSION + " (commit " +
                                          apcgate::build_commit() + ")");
    app.require_subcommand(0, 1);
    // In the order `--help` lists them; serve first, as it runs when no subcommand is given.
    const std::array commands{add_serve_command(app),   add_record_command(app),
                              add_inspect_command(app), add_report_command(app),
                              add_diff_command(app),    add_convert_command(app)};
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? kExitOk : kExitUsage;
    }
    for (const Subcommand& c : commands)
        if (*c.app) return c.run();
    return commands.front().run();
}

}  // namespace

// Errors are values (protocol/wire/result.hpp); an exception that gets here is a bug or memory
// running out. It is said on stderr and the run fails, rather than std::terminate aborting
// without naming it.
int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "apcgate: internal error: %s\n", e.what());
    } catch (...) {
        std::fprintf(stderr, "apcgate: internal error: an unknown exception\n");
    }
    return kExitFailure;
}
