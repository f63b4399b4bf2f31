// Constants of the Streamline annotation protocol as Arm's streamline_annotate library speaks it
// (docs/protocol/annotation-protocol.md; the library's annotate/streamline_annotate.c is the
// authority), and the limits apcgate puts on it. Shared by the tokenizer, the message parser and
// the listeners.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace apcgate::collectors::annotate {

// Abstract Unix socket names (without the leading NUL) and TCP ports the library connects to.
inline constexpr std::string_view kParentSocketName = "streamline-annotate-parent";
inline constexpr std::string_view kDataSocketName = "streamline-annotate";
inline constexpr std::uint16_t kParentTcpPort = 8082;
inline constexpr std::uint16_t kDataTcpPort = 8083;

// Handshake: "ANNOTATE <version>\n", u32 tid, u32 pid, u8 dont_mangle_keys.
inline constexpr std::string_view kHandshakeMagic = "ANNOTATE ";
inline constexpr std::size_t kHandshakeIdBytes = 9;
inline constexpr std::size_t kMaxVersionDigits = 3;
// Versions whose message layouts this reader knows (3: gator 5.23, 4: 5.24-7.8, 5: 7.9 on; the
// layouts are the same, 4 added codes 0x0e-0x10 and 5 widened the counter value to p64).
inline constexpr int kMinVersion = 3;
inline constexpr int kMaxVersion = 5;

// Message header: u8 code, u32 LE payload length.
inline constexpr std::size_t kMessageHeaderBytes = 5;

enum class Code : std::uint8_t {
    String = 0x01,
    StringColour = 0x02,
    ChannelName = 0x03,
    GroupName = 0x04,
    Visual = 0x05,
    Marker = 0x06,
    MarkerColour = 0x07,
    Counter = 0x08,
    CounterValue = 0x09,
    ActivitySwitch = 0x0a,
    CamTrack = 0x0b,
    CamJob = 0x0c,
    CamViewName = 0x0d,
    CamJobStart = 0x0e,
    CamJobSetDeps = 0x0f,
    CamJobStop = 0x10,
};
inline constexpr std::uint8_t kMaxCode = 0x10;
inline constexpr std::size_t kCodeSlots = kMaxCode + 1;  // index = code; slot 0 unused

inline constexpr bool known_code(std::uint8_t c) {
    return c >= 1 && c <= kMaxCode;
}

// Record kind names used in errors and statistics (index = code).
inline constexpr std::array<std::string_view, kCodeSlots> kCodeNames = {"?",
                                                                        "string",
                                                                        "string with colour",
                                                                        "channel name",
                                                                        "group name",
                                                                        "visual",
                                                                        "marker",
                                                                        "marker with colour",
                                                                        "counter",
                                                                        "counter value",
                                                                        "activity switch",
                                                                        "CAM track",
                                                                        "CAM job",
                                                                        "CAM view name",
                                                                        "CAM job start",
                                                                        "CAM job set deps",
                                                                        "CAM job stop"};

inline constexpr std::string_view code_name(std::uint8_t c) {
    return known_code(c) ? kCodeNames[c] : std::string_view("unknown");
}

// The library drops any message whose worst case exceeds half its 64 KiB ring, so no message
// but a visual's image is longer than 32 KiB; a visual's image is any u32 long and is capped.
struct StreamLimits {
    std::size_t max_message_bytes = std::size_t{32} * 1024;  // payload of every message but visuals
    std::uint32_t max_visual_bytes = 16 * 1024 * 1024;       // a visual's whole payload (image too)
};

}  // namespace apcgate::collectors::annotate
