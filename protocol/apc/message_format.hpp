// One line of text per decoded message (and per frame header) for `apcgate inspect --dump`:
//   0x00000123 Counter ts=1000 core=0 key=3 value=42
// Offsets are the message's byte offset in the input; strings are quoted with C escapes and
// byte payloads show their first 32 bytes in hex.
#pragma once

#include <string>

#include "protocol/apc/decoder.hpp"

namespace apcgate::apc {

// "0x00000100 frame Counter size=57 messages=3" (plus " core=N" for frames with a core).
std::string format_frame_header(const DecodedFrame& frame);
// The message's line, without a trailing newline.
std::string format_message(const DecodedMessage& message);
// The header line and every message line, each ending in '\n', appended to `out`.
void format_frame(const DecodedFrame& frame, std::string& out);

}  // namespace apcgate::apc
