// The two entry points the format registry calls: detection by the file header (and the first
// record after it), and opening a log as a capture source.
#include "collectors/xray/xray_ingest.hpp"

#include "collectors/xray/xray_reader.hpp"
#include "collectors/xray/xray_source.hpp"

namespace apcgate::collectors::xray {

bool sniff(const std::filesystem::path& /*path*/, std::span<const std::uint8_t> head) {
    return looks_like_xray(head);
}

Result<std::unique_ptr<ingest::IngestSource>> open(const ingest::IngestOptions& options) {
    auto source = XraySource::open(options);
    if (!source) return std::move(source).take_error();
    return std::unique_ptr<ingest::IngestSource>(std::move(*source));
}

}  // namespace apcgate::collectors::xray
