// What the XRay ingester is told about one log: its own options, which xray_ingest.cpp makes
// from the options every trace input shares (ingest::IngestOptions).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace apcgate::collectors::xray {

struct XrayOptions {
    std::filesystem::path input;
    std::filesystem::path binary;  // the instrumented executable, for symbols; empty: fn#ID
    // Where a stripped binary's debug file may be (gdb's debug-file-directory).
    std::vector<std::filesystem::path> debug_dirs = {"/usr/lib/debug"};
    // Decode on a thread beside the engine (true) or in poll() (false); unset: a thread when
    // the process may run on more than one CPU (ingest::usable_cpus()).
    std::optional<bool> decoding_thread = std::nullopt;
    // What was found about the log before it was opened (how its binary was chosen), for its
    // report.
    std::vector<std::string> notes = {};
};

}  // namespace apcgate::collectors::xray
