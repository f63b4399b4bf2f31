#include "collectors/ctf/trace_discovery.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <system_error>

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::collectors::ctf {

namespace fs = std::filesystem;

namespace {

constexpr std::uint32_t kMetadataPacketMagic = 0x75d11d57;

struct Walk {
    std::vector<fs::path> found;
    std::size_t visited = 0;
    bool first_only = false;
};

void walk(const fs::path& dir, int depth, Walk& w) {
    if (w.found.size() >= kMaxTraces || (w.first_only && !w.found.empty())) return;
    if (is_trace_dir(dir)) {
        w.found.push_back(dir);
        return;
    }
    if (depth >= kMaxTreeDepth) return;
    std::error_code ec;
    std::vector<fs::path> subdirs;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (++w.visited > kMaxEntriesVisited) return;
        // Symbolic links are not followed: a link back up the tree would loop.
        if (it->symlink_status(ec).type() == fs::file_type::directory)
            subdirs.push_back(it->path());
    }
    std::sort(subdirs.begin(), subdirs.end());
    for (const auto& d : subdirs) walk(d, depth + 1, w);
}

}  // namespace

bool looks_like_metadata(std::span<const std::uint8_t> head) {
    static constexpr std::string_view kTextStart = "/* CTF";
    if (head.size() >= kTextStart.size() &&
        std::equal(kTextStart.begin(), kTextStart.end(), head.begin(),
                   [](char a, std::uint8_t b) { return static_cast<std::uint8_t>(a) == b; }))
        return true;
    // A metadata packet header starts with the magic in the trace's byte order.
    wire::ByteReader le(head, wire::Endian::Little);
    le.set_record("metadata packet header");
    const std::uint32_t magic_le = le.u32("magic");
    if (!le.ok()) return false;
    wire::ByteReader be(head, wire::Endian::Big);
    be.set_record("metadata packet header");
    const std::uint32_t magic_be = be.u32("magic");
    return magic_le == kMetadataPacketMagic || magic_be == kMetadataPacketMagic;
}

bool is_trace_dir(const fs::path& dir) {
    std::error_code ec;
    const fs::path metadata = dir / "metadata";
    if (!fs::is_regular_file(metadata, ec)) return false;
    std::FILE* f = std::fopen(metadata.c_str(), "rb");
    if (f == nullptr) return false;
    std::array<std::uint8_t, 8> head{};
    const std::size_t n = std::fread(head.data(), 1, head.size(), f);
    std::fclose(f);
    return looks_like_metadata(std::span<const std::uint8_t>(head.data(), n));
}

Result<std::vector<fs::path>> find_traces(const fs::path& root) {
    std::error_code ec;
    if (!fs::is_directory(root, ec))
        return Error::at(ErrorKind::Usage, "not a directory").in_input(root.string());
    Walk w;
    walk(root, 0, w);
    if (w.found.empty())
        return Error::at(ErrorKind::Unsupported,
                         "no CTF trace (a directory with a CTF `metadata` file) at or below it")
            .in_input(root.string());
    return std::move(w.found);
}

bool has_trace_below(const fs::path& root) {
    Walk w;
    w.first_only = true;
    walk(root, 0, w);
    return !w.found.empty();
}

std::uint64_t stream_bytes(const fs::path& trace_dir) {
    std::uint64_t total = 0;
    std::error_code ec;
    for (fs::directory_iterator it(trace_dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().filename() == "metadata") continue;
        if (it->symlink_status(ec).type() != fs::file_type::regular) continue;
        const auto size = it->file_size(ec);
        if (!ec) total += size;
    }
    return total;
}

namespace {

void fingerprint_walk(const fs::path& dir, int depth, std::size_t& visited,
                      std::vector<std::string>& entries) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (++visited > kMaxEntriesVisited) return;
        const fs::path& p = it->path();
        std::error_code e;
        // Symbolic links are not followed, as find_traces() does not follow them.
        if (it->symlink_status(e).type() == fs::file_type::directory) {
            if (depth < kMaxTreeDepth) fingerprint_walk(p, depth + 1, visited, entries);
            continue;
        }
        const auto size = it->file_size(e);
        const auto mtime = it->last_write_time(e).time_since_epoch().count();
        entries.push_back(p.string() + '\0' + std::to_string(size) + '\0' + std::to_string(mtime));
    }
}

}  // namespace

std::uint64_t tree_fingerprint(const fs::path& root) {
    std::vector<std::string> entries;
    std::size_t visited = 0;
    std::error_code ec;
    // A trace named by its metadata file: its directory holds the streams.
    fingerprint_walk(fs::is_directory(root, ec) ? root : root.parent_path(), 0, visited, entries);
    std::sort(entries.begin(), entries.end());  // the directory order is no order
    std::uint64_t h = 14695981039346656037ULL;  // FNV-1a
    for (const auto& e : entries) {
        for (const char c : e) h = (h ^ static_cast<std::uint8_t>(c)) * 1099511628211ULL;
        h = (h ^ 0xFFU) * 1099511628211ULL;
    }
    return h;
}

}  // namespace apcgate::collectors::ctf
