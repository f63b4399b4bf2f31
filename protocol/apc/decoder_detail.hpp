// Per-frame-type message readers shared by decoder.cpp and decode_messages.cpp. Each reads one
// message at the reader's position and appends it; failures stay in the reader.
#pragma once

#include <vector>

#include "protocol/apc/decoder.hpp"
#include "protocol/wire/byte_reader.hpp"

namespace apcgate::apc::detail {

using MessageReader = void (*)(wire::ByteReader&, const DecodedFrame&,
                               std::vector<DecodedMessage>&);

// The reader for a frame code, or nullptr for codes the seed does not define.
MessageReader reader_for(std::int32_t code);

void read_summary(wire::ByteReader& r, const DecodedFrame& f, std::vector<DecodedMessage>& out);
void read_name(wire::ByteReader& r, const DecodedFrame& f, std::vector<DecodedMessage>& out);
void read_proc(wire::ByteReader& r, const DecodedFrame& f, std::vector<DecodedMessage>& out);
void read_backtrace(wire::ByteReader& r, const DecodedFrame& f, std::vector<DecodedMessage>& out);
void read_counter(wire::ByteReader& r, const DecodedFrame& f, std::vector<DecodedMessage>& out);
void read_block(wire::ByteReader& r, const DecodedFrame& f, std::vector<DecodedMessage>& out);
void read_annotate(wire::ByteReader& r, const DecodedFrame& f, std::vector<DecodedMessage>& out);
void read_sched(wire::ByteReader& r, const DecodedFrame& f, std::vector<DecodedMessage>& out);
void read_activity(wire::ByteReader& r, const DecodedFrame& f, std::vector<DecodedMessage>& out);
void read_idle(wire::ByteReader& r, const DecodedFrame& f, std::vector<DecodedMessage>& out);
// Reads the whole rest of an External frame (data or disconnect).
void read_external(wire::ByteReader& r, const DecodedFrame& f, std::vector<DecodedMessage>& out);

}  // namespace apcgate::apc::detail
