// libFuzzer target for the APC decoding path `apcgate inspect` runs on untrusted files: the
// capture-file splitter, decode_frame, the frame rule checker, event rebuilding (block counter
// state, annotation reassembly) and the text formatter. The input is used twice: as a whole
// capture file and as one frame body.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "protocol/apc/capture_stream.hpp"
#include "protocol/apc/frame_rules.hpp"
#include "protocol/apc/message_format.hpp"

namespace {

void exercise(const std::vector<apcgate::apc::DecodedFrame>& frames) {
    (void)apcgate::apc::check_frame_rules(frames, {3, 4, 5}, 4);
    apcgate::apc::EventRebuilder rebuild;
    std::string text;
    for (const auto& f : frames) {
        (void)rebuild.add(f);
        apcgate::apc::format_frame(f, text);
        if (text.size() > (1u << 20)) text.clear();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> input(data, size);
    const auto capture = apcgate::apc::decode_capture(input, 0);
    exercise(capture.frames);
    auto frame = apcgate::apc::decode_frame(input, 0);
    if (frame.ok()) exercise({std::move(frame).value()});
    return 0;
}
