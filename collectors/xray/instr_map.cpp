#include "collectors/xray/instr_map.hpp"

namespace apcgate::collectors::xray {

Result<std::vector<std::uint64_t>> function_addresses(const InstrMapSection& s,
                                                      const std::string& input) {
    const std::size_t entry = s.is64 ? 32 : 16;
    const std::size_t word = s.is64 ? 8 : 4;
    if (s.bytes.size() % entry != 0) {
        Error e = Error::at(ErrorKind::Malformed, "section size " + std::to_string(s.bytes.size()) +
                                                      " is not a whole number of " +
                                                      std::to_string(entry) + "-byte sleds");
        e.input = input;
        e.record = "xray_instr_map";
        return e;
    }
    auto relocated = [&s](std::uint64_t position, std::uint64_t value) {
        if (value != 0 || s.relocations == nullptr) return value;
        const auto it = s.relocations->find(position);
        return it != s.relocations->end() ? it->second : value;
    };
    wire::ByteReader r(s.bytes, s.endian, 0, input);
    r.set_record("xray_instr_map");
    std::vector<std::uint64_t> functions;
    std::uint64_t current = 0;
    bool first = true;
    for (std::size_t at = 0; at < s.bytes.size(); at += entry) {
        r.seek(at);
        const std::uint64_t sled = s.address + at;
        r.skip(word, "address");  // the sled's own place: ids only need the function
        std::uint64_t function = relocated(sled + word, r.uint(word, "function"));
        r.u8("kind");
        r.u8("always_instrument");
        const std::uint8_t version = r.u8("version");
        if (!r.ok()) return r.take_error();
        // Relative from version 2 on; unsigned wrap-around is the intended arithmetic.
        if (version >= 2) function += sled + word;
        if (!s.is64) function &= 0xFFFFFFFFU;
        if (first || function != current) {
            functions.push_back(function);
            current = function;
            first = false;
        }
    }
    return functions;
}

}  // namespace apcgate::collectors::xray
