// Entry points of the Fuchsia trace format archive ingester, used by
// daemon/capture/ingest_registry.cpp.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include "collectors/ingest/ingest_source.hpp"

namespace apcgate::collectors::fxt {

// True when `head` (the first bytes of the file; empty for a directory) is this format.
bool sniff(const std::filesystem::path& path, std::span<const std::uint8_t> head);
// Opens the input and reads what declare() needs.
Result<std::unique_ptr<ingest::IngestSource>> open(const ingest::IngestOptions& options);

}  // namespace apcgate::collectors::fxt
