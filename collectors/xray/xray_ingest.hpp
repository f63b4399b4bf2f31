// Entry points of the LLVM XRay log (FDR or basic mode) ingester, used by
// daemon/capture/ingest_registry.cpp.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include "collectors/ingest/ingest_source.hpp"
#include "collectors/xray/xray_options.hpp"

namespace apcgate::collectors::xray {

// True when `head` (the first bytes of the file; empty for a directory) is this format.
bool sniff(const std::filesystem::path& path, std::span<const std::uint8_t> head);
// The log's own options: the --binary of `shared.binaries` that wrote it (binary_for_log()), with
// a note when none did, and the debug directories.
XrayOptions xray_options(const ingest::IngestOptions& shared);
// Opens the input and reads what declare() needs.
Result<std::unique_ptr<ingest::IngestSource>> open(const ingest::IngestOptions& options);

}  // namespace apcgate::collectors::xray
