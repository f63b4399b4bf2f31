// Placeholder until the ctf ingester lands: recognises nothing, opens nothing.
#include "collectors/ctf/ctf_ingest.hpp"

namespace apcgate::collectors::ctf {

bool sniff(const std::filesystem::path& /*path*/, std::span<const std::uint8_t> /*head*/) {
    return false;
}

Result<std::unique_ptr<ingest::IngestSource>> open(const ingest::IngestOptions& options) {
    return Error::at("the ctf ingester is not built yet").in_input(options.input.string());
}

}  // namespace apcgate::collectors::ctf
