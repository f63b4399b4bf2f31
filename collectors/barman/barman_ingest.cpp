// Placeholder until the barman ingester lands: recognises nothing, opens nothing.
#include "collectors/barman/barman_ingest.hpp"

namespace apcgate::collectors::barman {

bool sniff(const std::filesystem::path& /*path*/, std::span<const std::uint8_t> /*head*/) {
    return false;
}

Result<std::unique_ptr<ingest::IngestSource>> open(const ingest::IngestOptions& options) {
    return Error::at("the barman ingester is not built yet").in_input(options.input.string());
}

}  // namespace apcgate::collectors::barman
