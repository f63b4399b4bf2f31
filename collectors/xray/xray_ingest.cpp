// The two entry points the format registry calls: detection by the file header (and the first
// record after it), and opening a log as a capture source with the XRay options the shared ones
// give: the --binary that wrote this log (binary_for_log.hpp) and the debug directories.
#include "collectors/xray/xray_ingest.hpp"

#include "collectors/xray/binary_for_log.hpp"
#include "collectors/xray/xray_reader.hpp"
#include "collectors/xray/xray_source.hpp"

namespace apcgate::collectors::xray {

bool sniff(const std::filesystem::path& /*path*/, std::span<const std::uint8_t> head) {
    return looks_like_xray(head);
}

XrayOptions xray_options(const ingest::IngestOptions& shared) {
    XrayOptions options;
    options.input = shared.input;
    BinaryChoice binary = binary_for_log(shared.input, shared.binaries);
    if (binary.binary) options.binary = *binary.binary;
    if (!binary.note.empty()) options.notes.push_back(std::move(binary.note));
    options.debug_dirs = shared.debug_dirs;
    return options;
}

Result<std::unique_ptr<ingest::IngestSource>> open(const ingest::IngestOptions& options) {
    auto source = XraySource::open(xray_options(options));
    if (!source) return std::move(source).take_error();
    return std::unique_ptr<ingest::IngestSource>(std::move(*source));
}

}  // namespace apcgate::collectors::xray
