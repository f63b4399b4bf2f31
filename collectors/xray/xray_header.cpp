#include "collectors/xray/xray_header.hpp"

namespace apcgate::collectors::xray {

namespace {

struct RawHeader {
    std::uint16_t version;
    std::uint16_t type;
    std::uint32_t bits;
    std::uint64_t frequency;
    std::uint64_t buffer_size;
};

RawHeader read_raw(wire::ByteReader& r) {
    RawHeader h{};
    h.version = r.u16("version");
    h.type = r.u16("type");
    h.bits = r.u32("bitfield");
    h.frequency = r.u64("cycle_frequency");
    h.buffer_size = r.u64("buffer_size");
    r.skip(8, "reserved");
    return h;
}

bool plausible(const RawHeader& h) {
    return h.type <= 1 && known_version(static_cast<LogType>(h.type), h.version);
}

}  // namespace

bool known_version(LogType type, std::uint16_t version) {
    if (type == LogType::Fdr) return version >= 1 && version <= 5;
    return version >= 1 && version <= 3;
}

Result<FileHeader> read_file_header(std::span<const std::uint8_t> data, const std::string& input) {
    wire::ByteReader le(data, wire::Endian::Little, 0, input);
    le.set_record("FileHeader");
    const RawHeader l = read_raw(le);
    if (!le.ok()) return le.take_error().while_("reading the XRay file header");

    wire::ByteReader be(data, wire::Endian::Big, 0, input);
    be.set_record("FileHeader");
    const RawHeader b = read_raw(be);

    FileHeader h;
    RawHeader raw = l;
    if (!plausible(l)) {
        if (!plausible(b)) {
            Error e = Error::at(ErrorKind::Malformed,
                                "not an XRay log: version " + std::to_string(l.version) + " type " +
                                    std::to_string(l.type) +
                                    " is no FDR (type 1, versions 1-5) or basic-mode (type 0, "
                                    "versions 1-3) log in either byte order");
            e.input = input;
            e.offset = 0;
            e.record = "FileHeader";
            e.field = "version";
            return e;
        }
        raw = b;
        h.endian = wire::Endian::Big;
    }
    h.version = raw.version;
    h.type = static_cast<LogType>(raw.type);
    h.cycle_frequency = raw.frequency;
    h.buffer_size = raw.buffer_size;
    // The flags are C bitfields of the first byte after `type`: LSB first on little-endian
    // writers, MSB first on big-endian ones.
    const std::uint8_t flags = data[4];
    if (h.endian == wire::Endian::Little) {
        h.constant_tsc = (flags & 0x01U) != 0;
        h.nonstop_tsc = (flags & 0x02U) != 0;
    } else {
        h.constant_tsc = (flags & 0x80U) != 0;
        h.nonstop_tsc = (flags & 0x40U) != 0;
    }
    return h;
}

std::string describe(const FileHeader& h) {
    std::string s = h.type == LogType::Fdr ? "FDR" : "basic-mode";
    s += " v" + std::to_string(h.version);
    s += h.endian == wire::Endian::Little ? " little-endian" : " big-endian";
    return s;
}

}  // namespace apcgate::collectors::xray
