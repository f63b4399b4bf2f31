// The texts of the annotations: a call's span is its function name followed by its logged
// arguments, "name [67, 140737488346112]" (decimal, as llvm-xray prints them); a custom or typed
// event's payload is shown as text when it is printable UTF-8 and as hex bytes otherwise,
// "custom: hello", "typed 7: 0x00 0x01 ...". Long payloads are cut with an ellipsis so one
// annotation stays within what Streamline shows.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace apcgate::collectors::xray {

inline constexpr std::size_t kMaxPayloadText = 1024;  // bytes of payload shown

std::string call_text(std::string_view name, std::span<const std::uint64_t> args);

// `label` goes before the payload: "custom" or "typed 7".
std::string event_text(std::string_view label, std::span<const std::uint8_t> payload);

// True when every byte sequence is valid UTF-8 and no character is a control character
// (tab excepted).
bool printable_utf8(std::span<const std::uint8_t> bytes);

}  // namespace apcgate::collectors::xray
