// Process exit codes, the same for every subcommand (documented in --help, apcgate(1) and the
// README; tests/man checks that apcgate(1) lists each one).
#pragma once

namespace apcgate::daemon {

enum ExitCode : int {
    kExitOk = 0,
    kExitFailure = 1,       // run-time failure: cannot listen, capture failed, write error
    kExitUsage = 2,         // bad command line
    kExitInvalidInput = 3,  // invalid capture (inspect), corrupt input, bad --session/--config
    kExitOutputExists = 4,  // record/convert: output directory exists and no --force
    kExitRuleFailed = 5,    // diff: a --fail-if rule tripped
    kExitSignalBase = 128,  // convert stopped by a signal: 128 + its number (130 SIGINT)
};

inline constexpr const char* kExitCodesHelp =
    "Exit codes: 0 success; 1 run-time failure; 2 usage error; 3 invalid input data\n"
    "(inspect found an invalid capture, a corrupt trace, a bad --session/--config);\n"
    "4 the output directory exists (use --force); 5 a diff --fail-if rule failed;\n"
    "130/143 convert stopped by SIGINT/SIGTERM (the capture is written up to there).";

}  // namespace apcgate::daemon
