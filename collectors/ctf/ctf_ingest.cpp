// Entry points of the CTF ingester: format detection (a directory holding CTF traces, or a
// trace's `metadata` file) and opening (see ctf_source.hpp).
#include "collectors/ctf/ctf_ingest.hpp"

#include <system_error>

#include "collectors/ctf/ctf_source.hpp"
#include "collectors/ctf/trace_discovery.hpp"

namespace apcgate::collectors::ctf {

namespace fs = std::filesystem;

namespace {
// A trace's metadata file stands for its directory.
fs::path trace_root(const fs::path& input) {
    std::error_code ec;
    if (input.filename() == "metadata" && fs::is_regular_file(input, ec)) {
        const fs::path parent = input.parent_path();
        return parent.empty() ? fs::path(".") : parent;
    }
    return input;
}
}  // namespace

bool sniff(const fs::path& path, std::span<const std::uint8_t> head) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return has_trace_below(path);
    return path.filename() == "metadata" && looks_like_metadata(head);
}

Result<std::unique_ptr<ingest::IngestSource>> open(const ingest::IngestOptions& options) {
    auto source = CtfSource::open(trace_root(options.input), options.self_exe);
    if (!source) return std::move(source).take_error();
    return std::unique_ptr<ingest::IngestSource>(std::move(*source));
}

}  // namespace apcgate::collectors::ctf
