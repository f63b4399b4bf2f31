// libFuzzer entry for the parent's side of the CTF worker's pipe (collectors/ctf/
// worker_frames.hpp): the input is what a worker might write, a sequence of frames
//   length:u32le kind:u8 body[length - 1] ...
// each decoded by its kind exactly as CtfSource decodes them. The worker runs libbabeltrace2 on
// hostile traces, so its output is untrusted: any bytes must give frames or an error, never a
// crash, a read out of bounds or an allocation beyond the frame's size.
#include <cstddef>
#include <cstdint>
#include <span>

#include "collectors/ctf/trace_graph.hpp"
#include "collectors/ctf/worker_frames.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace ctf = apcgate::collectors::ctf;
    std::span<const std::uint8_t> in(data, size);
    // Keys the parent gave the worker: 3 -> 10, 4 -> 11, 5 -> 12.
    const std::vector<apcgate::model::CounterKey> keys{10, 11, 12};
    ctf::Chunk chunk;  // reused across frames, as the source's reader does
    while (in.size() >= ctf::kFrameHeaderBytes) {
        auto header = ctf::decode_header(in.first(ctf::kFrameHeaderBytes));
        if (!header) return 0;
        in = in.subspan(ctf::kFrameHeaderBytes);
        if (header->body_bytes > in.size()) return 0;  // the pipe would end mid-frame
        const auto body = in.first(header->body_bytes);
        in = in.subspan(header->body_bytes);
        apcgate::Error e;
        switch (header->kind) {
            case ctf::FrameKind::Probe:
                (void)ctf::decode_probe(body);
                break;
            case ctf::FrameKind::Chunk:
                (void)ctf::decode_chunk(body, keys, chunk);
                break;
            case ctf::FrameKind::Error:
                (void)ctf::decode_error(body, e);
                break;
            case ctf::FrameKind::End:
                return 0;
        }
    }
    return 0;
}
