#include "daemon/capture/ingest_registry.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

#include "collectors/barman/barman_ingest.hpp"
#include "collectors/ctf/ctf_ingest.hpp"
#include "collectors/fxt/fxt_ingest.hpp"
#include "collectors/xray/xray_ingest.hpp"
#include "protocol/wire/unique_fd.hpp"

namespace apcgate::daemon {

namespace ingest = collectors::ingest;

const std::vector<ingest::IngestFormat>& ingest_formats() {
    static const std::vector<ingest::IngestFormat> kFormats{
        {"barman", "Arm Barman data store (bare-metal capture buffer dump)",
         collectors::barman::sniff, collectors::barman::open},
        {"xray", "LLVM XRay log (FDR or basic mode)", collectors::xray::sniff,
         collectors::xray::open},
        {"fxt", "Fuchsia trace format archive", collectors::fxt::sniff, collectors::fxt::open},
        {"ctf", "CTF trace directory (LTTng, barectf), read with libbabeltrace2",
         collectors::ctf::sniff, collectors::ctf::open},
    };
    return kFormats;
}

const ingest::IngestFormat* find_format(std::string_view name) {
    for (const auto& f : ingest_formats())
        if (f.name == name) return &f;
    return nullptr;
}

namespace {

std::vector<std::uint8_t> head_of(const std::filesystem::path& path) {
    std::vector<std::uint8_t> head(64);
    wire::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) return {};
    const ssize_t n = ::read(fd.get(), head.data(), head.size());
    head.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return head;
}

std::string hex(std::span<const std::uint8_t> bytes) {
    std::string out;
    char b[4];
    for (std::size_t i = 0; i < bytes.size() && i < 16; ++i) {
        std::snprintf(b, sizeof b, "%02x ", bytes[i]);
        out += b;
    }
    if (!out.empty()) out.pop_back();
    return out;
}

}  // namespace

Result<InputSpec> resolve_input(const std::string& arg, const std::string& forced) {
    InputSpec spec;
    spec.path = arg;
    std::string name = forced;
    if (const auto colon = arg.find(':');
        colon != std::string::npos && find_format(arg.substr(0, colon))) {
        name = arg.substr(0, colon);
        spec.path = arg.substr(colon + 1);
    }
    std::error_code ec;
    const bool is_dir = std::filesystem::is_directory(spec.path, ec);
    if (!is_dir && !std::filesystem::is_regular_file(spec.path, ec))
        return Error::at(ErrorKind::Io, "no such file or directory").in_input(spec.path.string());
    if (!name.empty()) {
        spec.format = find_format(name);
        if (spec.format == nullptr)
            return Error::at(ErrorKind::Usage, "unknown format '" + name + "'")
                .in_input(spec.path.string());
        return spec;
    }
    const auto head = is_dir ? std::vector<std::uint8_t>{} : head_of(spec.path);
    for (const auto& f : ingest_formats()) {
        if (f.sniff(spec.path, head)) {
            spec.format = &f;
            return spec;
        }
    }
    return Error::at(ErrorKind::Unsupported,
                     is_dir ? std::string("directory is not a trace of a known format")
                            : "unknown format (first bytes: " + hex(head) + "); use --format")
        .in_input(spec.path.string());
}

Result<std::vector<std::unique_ptr<ingest::IngestSource>>> open_inputs(
    const std::vector<InputSpec>& inputs, const std::vector<std::filesystem::path>& binaries,
    const std::vector<std::filesystem::path>& debug_dirs) {
    std::vector<std::unique_ptr<ingest::IngestSource>> out;
    for (const auto& in : inputs) {
        ingest::IngestOptions options;
        options.input = in.path;
        options.binaries = binaries;
        options.debug_dirs = debug_dirs;
        auto src = in.format->open(options);
        if (!src) return std::move(src).take_error().while_("opening it as " + in.format->name);
        out.push_back(std::move(src).value());
    }
    return out;
}

collectors::ingest::TimelinePlacement place_inputs(
    const std::vector<collectors::ingest::IngestSource*>& inputs) {
    std::vector<collectors::ingest::TimelineInput> placed;
    placed.reserve(inputs.size());
    for (const auto* in : inputs)
        placed.push_back({in->report().input(), in->time_origin(), in->clock()});
    return collectors::ingest::place_on_timeline(placed);
}

}  // namespace apcgate::daemon
