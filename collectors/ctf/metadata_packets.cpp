#include "collectors/ctf/metadata_packets.hpp"

#include <cstdio>
#include <vector>

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::collectors::ctf {

namespace {
constexpr std::uint32_t kMagic = 0x75d11d57;
constexpr std::uint64_t kHeaderBits = kMetadataHeaderBytes * 8;
}  // namespace

Status check_metadata_packets(std::span<const std::uint8_t> metadata) {
    wire::ByteReader probe(metadata, wire::Endian::Little);
    const std::uint32_t first = probe.u32("magic");
    if (!probe.ok() || (first != kMagic && __builtin_bswap32(first) != kMagic)) return {};  // text
    wire::ByteReader r(metadata, first == kMagic ? wire::Endian::Little : wire::Endian::Big);
    r.set_record("metadata packet header");
    while (!r.at_end()) {
        const std::size_t start = r.pos();
        if (r.u32("magic") != kMagic && r.ok()) {
            r.seek(start);
            r.fail("bad magic (not 0x75D11D57)", "magic");
        }
        r.skip(16, "uuid");
        r.u32("checksum");
        const std::uint32_t content_bits = r.u32("content_size");
        const std::uint32_t packet_bits = r.u32("packet_size");
        r.skip(5, "compression_scheme..minor");
        if (!r.ok()) break;
        if (content_bits < kHeaderBits || content_bits % 8 != 0 || packet_bits < content_bits ||
            packet_bits % 8 != 0 || content_bits / 8 > metadata.size() - start)
            r.seek(start + 20);  // report at the sizes
        if (content_bits < kHeaderBits || content_bits % 8 != 0)
            r.fail("content_size " + std::to_string(content_bits) +
                       " bits is not a whole number of bytes past the 37-byte header",
                   "content_size");
        else if (packet_bits < content_bits || packet_bits % 8 != 0)
            r.fail("packet_size " + std::to_string(packet_bits) +
                       " bits is smaller than content_size or not whole bytes",
                   "packet_size");
        else if (content_bits / 8 > metadata.size() - start)
            r.fail(ErrorKind::Truncated,
                   "content_size " + std::to_string(content_bits) +
                       " bits runs past the end of the file",
                   "content_size");
        if (!r.ok()) break;
        // The last packet's padding may be missing from the file.
        r.seek(std::min<std::size_t>(metadata.size(), start + packet_bits / 8));
    }
    if (r.ok()) return {};
    return r.take_error();
}

Status check_metadata_file(const std::filesystem::path& metadata) {
    std::FILE* f = std::fopen(metadata.c_str(), "rb");
    if (f == nullptr) return Error::at(ErrorKind::Io, "cannot open").in_input(metadata.string());
    std::vector<std::uint8_t> bytes(4);
    std::size_t n = std::fread(bytes.data(), 1, bytes.size(), f);
    const std::span<const std::uint8_t> head(bytes.data(), n);
    wire::ByteReader magic(head);
    const std::uint32_t m = magic.u32("magic");
    if (magic.ok() && (m == kMagic || __builtin_bswap32(m) == kMagic)) {
        // Packetised: read it all (metadata is small; a huge one is refused).
        std::error_code ec;
        const auto size = std::filesystem::file_size(metadata, ec);
        if (ec || size > kMaxMetadataBytes) {
            std::fclose(f);
            return Error::at(ErrorKind::Limit, "packetised metadata larger than 64 MiB")
                .in_input(metadata.string());
        }
        bytes.resize(size);
        n += std::fread(bytes.data() + n, 1, size - n, f);
        bytes.resize(n);
    }
    std::fclose(f);
    Status st = check_metadata_packets(bytes);
    if (!st) return std::move(st).take_error().in_input(metadata.string());
    return {};
}

}  // namespace apcgate::collectors::ctf
