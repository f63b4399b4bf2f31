// libFuzzer target for what the annotation sources read from untrusted clients: the data
// connection validator (tokenizer, message parser, hold-back and forwarding) and the text form's
// line splitter, on any bytes split into reads of any size. Beyond not crashing, it checks the
// forwarding contract: what is forwarded is always a prefix of what arrived, and all of it once
// the stream closes without a protocol error.
//   byte 0: bit 0 text form / data connection; bit 1 prepend a valid handshake; bits 2-7 limits
//   byte 1: read size - 1
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "collectors/annotate/stream_validator.hpp"
#include "collectors/annotate/text_lines.hpp"

namespace {

using namespace apcgate::collectors::annotate;

void text_form(std::span<const std::uint8_t> in, std::size_t chunk, std::size_t max_text) {
    TextLineTokenizer lines(max_text);
    std::uint64_t last_offset = 0;
    const auto check = [&](const TextLine& l) {
        if (l.text.size() > max_text || l.offset < last_offset || l.offset > in.size())
            __builtin_trap();
        last_offset = l.offset;
    };
    for (std::size_t pos = 0; pos < in.size(); pos += chunk) {
        auto piece = in.subspan(pos, std::min(chunk, in.size() - pos));
        while (auto l = lines.next(piece)) check(*l);
    }
    if (auto l = lines.finish()) check(*l);
}

// What the validator forwarded is a prefix of its input. An empty vector's data() may be null,
// and memcmp with a null pointer is undefined even for 0 bytes (UBSan reports it).
bool forwarded_prefix(const std::vector<std::uint8_t>& forwarded,
                      std::span<const std::uint8_t> in) {
    if (forwarded.size() > in.size()) return false;
    return forwarded.empty() || std::memcmp(forwarded.data(), in.data(), forwarded.size()) == 0;
}

void data_connection(std::span<const std::uint8_t> in, std::size_t chunk, StreamLimits limits) {
    StreamValidator v(limits);
    std::vector<std::uint8_t> forwarded;
    for (std::size_t pos = 0; pos < in.size(); pos += chunk) {
        v.feed(in.subspan(pos, std::min(chunk, in.size() - pos)), forwarded);
        if (!forwarded_prefix(forwarded, in)) __builtin_trap();
    }
    v.finish(forwarded);
    if (!forwarded_prefix(forwarded, in)) __builtin_trap();
    if (!v.failed() && forwarded.size() != in.size()) __builtin_trap();
    if (v.counts().forwarded_bytes != forwarded.size()) __builtin_trap();
    (void)v.counts().describe();
    if (v.error()) (void)v.error()->to_string();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::uint8_t mode = data[0];
    const std::size_t chunk = std::size_t{data[1]} + 1;
    std::vector<std::uint8_t> in;
    if ((mode & 2) != 0) {
        static constexpr char kHandshake[] = "ANNOTATE 5\n\x01\x00\x00\x00\x02\x00\x00\x00\x00";
        in.assign(kHandshake, kHandshake + sizeof kHandshake - 1);
    }
    in.insert(in.end(), data + 2, data + size);
    const std::size_t knob = mode >> 2;  // 0..63
    if ((mode & 1) != 0) {
        text_form(in, chunk, 1 + knob * 70);
    } else {
        StreamLimits limits;
        limits.max_message_bytes = 16 + knob * 600;
        limits.max_visual_bytes = static_cast<std::uint32_t>(64 + knob * knob * 300);
        data_connection(in, chunk, limits);
    }
    return 0;
}
