// The Barman ingester's entry points: recognise a data store by its magic, open it as a source.
#include "collectors/barman/barman_ingest.hpp"

#include "collectors/barman/barman_source.hpp"
#include "collectors/barman/header.hpp"

namespace apcgate::collectors::barman {

bool sniff(const std::filesystem::path& /*path*/, std::span<const std::uint8_t> head) {
    return is_barman_magic(head);
}

Result<std::unique_ptr<ingest::IngestSource>> open(const ingest::IngestOptions& options) {
    auto source = BarmanSource::open(options);
    if (!source) return std::move(source).take_error();
    return std::unique_ptr<ingest::IngestSource>(std::move(source).value());
}

}  // namespace apcgate::collectors::barman
