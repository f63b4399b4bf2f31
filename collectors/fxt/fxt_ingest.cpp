// Placeholder until the fxt ingester lands: recognises nothing, opens nothing.
#include "collectors/fxt/fxt_ingest.hpp"

namespace apcgate::collectors::fxt {

bool sniff(const std::filesystem::path& /*path*/, std::span<const std::uint8_t> /*head*/) {
    return false;
}

Result<std::unique_ptr<ingest::IngestSource>> open(const ingest::IngestOptions& options) {
    return Error::at("the fxt ingester is not built yet").in_input(options.input.string());
}

}  // namespace apcgate::collectors::fxt
