// The trace formats `convert` and `serve --source` read, and how an input's format is found:
// an explicit "fmt:PATH" or --format wins, else the magic bytes (directories: the layout).
// A format is one entry of ingest_formats(): nothing else here knows any format by its name.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "collectors/ingest/ingest_source.hpp"
#include "collectors/ingest/timeline_placement.hpp"

namespace apcgate::daemon {

const std::vector<collectors::ingest::IngestFormat>& ingest_formats();
const collectors::ingest::IngestFormat* find_format(std::string_view name);

struct InputSpec {
    const collectors::ingest::IngestFormat* format = nullptr;
    std::filesystem::path path;
};

// Resolves "PATH" or "fmt:PATH" (forced = --format, may be empty). Errors say what the first
// bytes were when no format matches.
Result<InputSpec> resolve_input(const std::string& arg, const std::string& forced);

// Opens every input with its format's open(), which takes what it uses of the command line's
// `binaries` (--binary) and `debug_dirs` (--debug-dir); the first failure is returned.
Result<std::vector<std::unique_ptr<collectors::ingest::IngestSource>>> open_inputs(
    const std::vector<InputSpec>& inputs, const std::vector<std::filesystem::path>& binaries,
    const std::vector<std::filesystem::path>& debug_dirs);

// Where the opened inputs go on the capture's timeline: by their clocks (each input's
// time_origin() and clock()), see collectors/ingest/timeline_placement.hpp.
collectors::ingest::TimelinePlacement place_inputs(
    const std::vector<collectors::ingest::IngestSource*>& inputs);

}  // namespace apcgate::daemon
