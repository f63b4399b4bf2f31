// Entry points of the FXT ingester (see fxt_ingest.hpp): an archive is recognised by its magic
// record (spec "Magic number record"), in either byte order.
#include "collectors/fxt/fxt_ingest.hpp"

#include "collectors/fxt/fxt_source.hpp"
#include "collectors/fxt/tokenizer.hpp"

namespace apcgate::collectors::fxt {

bool sniff(const std::filesystem::path& /*path*/, std::span<const std::uint8_t> head) {
    return starts_with_magic(head);
}

Result<std::unique_ptr<ingest::IngestSource>> open(const ingest::IngestOptions& options) {
    auto source = FxtSource::open(options.input);
    if (!source) return std::move(source).take_error();
    return std::unique_ptr<ingest::IngestSource>(std::move(source).value());
}

}  // namespace apcgate::collectors::fxt
