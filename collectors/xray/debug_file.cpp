#include "collectors/xray/debug_file.hpp"

#include <zlib.h>

#include <algorithm>
#include <system_error>

#include "protocol/wire/mapped_file.hpp"

namespace apcgate::collectors::xray {

namespace {

// The CRC-32 .gnu_debuglink records (zlib's: the same polynomial and conditioning), of the
// whole file; nullopt when it cannot be read.
std::optional<std::uint32_t> file_crc32(const std::filesystem::path& path) {
    auto file = wire::MappedFile::open(path);
    if (!file) return std::nullopt;
    uLong crc = crc32(0L, Z_NULL, 0);
    // zlib takes at most 4 GiB at a time.
    for (auto rest = file->bytes(); !rest.empty();) {
        const std::size_t n = std::min<std::size_t>(rest.size(), 1U << 30);
        crc = crc32(crc, rest.data(), static_cast<uInt>(n));
        rest = rest.subspan(n);
    }
    return static_cast<std::uint32_t>(crc);
}

bool regular_file(const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec);
}

// Not the binary itself: a link named like the binary, beside it, would be the binary.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
    std::error_code ec;
    return std::filesystem::equivalent(a, b, ec);
}

// The candidate's functions when it is the binary's debug file: same build ID when `image`
// has one, and when `crc` is given the file's CRC-32 equal to it.
std::optional<std::vector<ElfSymbol>> matching_debug_file(const std::filesystem::path& candidate,
                                                          const ElfImage& image,
                                                          std::optional<std::uint32_t> crc) {
    if (crc && file_crc32(candidate) != crc) return std::nullopt;
    auto debug = read_debug_image(candidate);
    if (!debug) return std::nullopt;
    if (!image.build_id.empty() && debug->build_id != image.build_id) return std::nullopt;
    if (debug->functions.empty()) return std::nullopt;
    return std::move(debug->functions);
}

}  // namespace

std::string build_id_hex(std::span<const std::uint8_t> id) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s;
    s.reserve(id.size() * 2);
    for (const std::uint8_t b : id) {
        s += kHex[b >> 4];
        s += kHex[b & 0xf];
    }
    return s;
}

DebugFileSearch find_debug_file(const std::filesystem::path& binary, const ElfImage& image,
                                std::span<const std::filesystem::path> debug_dirs) {
    DebugFileSearch search;
    auto attempt = [&](const std::filesystem::path& candidate, std::optional<std::uint32_t> crc) {
        if (search.found) return;
        search.tried.push_back(candidate);
        if (!regular_file(candidate) || same_file(candidate, binary)) return;
        if (auto functions = matching_debug_file(candidate, image, crc)) {
            search.found = candidate;
            search.functions = std::move(*functions);
        }
    };
    // A build ID shorter than two bytes cannot be split into the directory and file names.
    if (image.build_id.size() >= 2) {
        const std::string hex = build_id_hex(image.build_id);
        for (const auto& dir : debug_dirs)
            attempt(dir / ".build-id" / hex.substr(0, 2) / (hex.substr(2) + ".debug"),
                    std::nullopt);
    }
    if (!image.debuglink.empty()) {
        std::error_code ec;
        std::filesystem::path bindir = std::filesystem::absolute(binary, ec).parent_path();
        const std::filesystem::path canonical = std::filesystem::weakly_canonical(bindir, ec);
        if (!ec) bindir = canonical;
        attempt(bindir / image.debuglink, image.debuglink_crc);
        attempt(bindir / ".debug" / image.debuglink, image.debuglink_crc);
        for (const auto& dir : debug_dirs)
            attempt(dir / bindir.relative_path() / image.debuglink, image.debuglink_crc);
    }
    return search;
}

}  // namespace apcgate::collectors::xray
