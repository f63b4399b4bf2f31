#include "collectors/perf/kernel_build_id.hpp"

#include <fstream>
#include <iterator>

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::collectors::perf {

namespace {

constexpr std::uint32_t kNtGnuBuildId = 3;
// No kernel has more than a few notes; a larger file is not a notes blob.
constexpr std::size_t kMaxNotesBytes = 64u << 10;

std::size_t padded(std::uint32_t n) {
    return (static_cast<std::size_t>(n) + 3) & ~std::size_t{3};
}

}  // namespace

Result<std::vector<std::uint8_t>> gnu_build_id(std::span<const std::uint8_t> notes) {
    wire::ByteReader r(notes);
    r.set_record("ELF note");
    while (r.ok() && r.remaining() >= 12) {
        const std::uint32_t namesz = r.u32("namesz");
        const std::uint32_t descsz = r.u32("descsz");
        const std::uint32_t type = r.u32("type");
        const auto name = r.bytes(padded(namesz), "name");
        const std::size_t desc_at = r.pos();
        r.skip(padded(descsz), "desc");
        if (!r.ok()) break;
        // "GNU" with its terminating NUL.
        const bool gnu =
            namesz == 4 && name[0] == 'G' && name[1] == 'N' && name[2] == 'U' && name[3] == 0;
        if (gnu && type == kNtGnuBuildId) {
            const auto desc = notes.subspan(desc_at, descsz);
            return std::vector<std::uint8_t>(desc.begin(), desc.end());
        }
    }
    if (!r.ok()) return r.take_error();
    return std::vector<std::uint8_t>{};
}

Result<std::vector<std::uint8_t>> kernel_build_id(const std::filesystem::path& sys_root) {
    const auto path = sys_root / "kernel" / "notes";
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error::at(ErrorKind::Io, "cannot open").in_input(path.string());
    std::vector<std::uint8_t> bytes(kMaxNotesBytes);
    in.read(reinterpret_cast<char*>(bytes.data()),  // NOLINT: istream reads chars
            static_cast<std::streamsize>(bytes.size()));
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    auto id = gnu_build_id(bytes);
    if (!id) return std::move(id).take_error().in_input(path.string());
    if (id->empty())
        return Error::at(ErrorKind::Unsupported, "no GNU build-id note").in_input(path.string());
    return id;
}

}  // namespace apcgate::collectors::perf
