// An .apc directory opened to be read back, alike for both framings' summaries
// (capture_summary.hpp for the v6.8 framing, perf_capture_summary.hpp for the Perf one): its
// captured.xml parsed and its data file mapped.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "protocol/wire/mapped_file.hpp"
#include "xml/documents.hpp"

namespace apcgate::daemon {

struct CaptureFiles {
    xml::CapturedDoc captured;
    std::filesystem::path data_path;  // DIR/0000000000
    wire::MappedFile data;
};

// The whole of a text file, or nullopt when it cannot be opened.
std::optional<std::string> read_document(const std::filesystem::path& file);

// DIR/captured.xml parsed. The error names the directory when the file cannot be read, the
// file when it does not parse.
Result<xml::CapturedDoc> read_captured(const std::filesystem::path& dir);

// DIR/events.xml's counter descriptions (units, multipliers); empty when it is missing or does
// not parse: a capture is readable without them.
std::vector<xml::EventInfo> read_event_infos(const std::filesystem::path& dir);

// DIR/captured.xml parsed and DIR/0000000000 mapped; fails when either cannot be read at all.
Result<CaptureFiles> open_capture_files(const std::filesystem::path& dir);

}  // namespace apcgate::daemon
