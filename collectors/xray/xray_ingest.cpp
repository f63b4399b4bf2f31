// Placeholder until the xray ingester lands: recognises nothing, opens nothing.
#include "collectors/xray/xray_ingest.hpp"

namespace apcgate::collectors::xray {

bool sniff(const std::filesystem::path& /*path*/, std::span<const std::uint8_t> /*head*/) {
    return false;
}

Result<std::unique_ptr<ingest::IngestSource>> open(const ingest::IngestOptions& options) {
    return Error::at("the xray ingester is not built yet").in_input(options.input.string());
}

}  // namespace apcgate::collectors::xray
