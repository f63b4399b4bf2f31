// Parses the payload of one annotation message into a typed record, to validate it and to count
// what each application sent. The bytes Streamline receives are the connection's own; nothing
// here is re-encoded.
//
// Payload layouts, by code (docs/protocol/annotation-protocol.md, "Data stream"; authority:
// Arm's annotate/streamline_annotate.c, the gator_annotate_* and gator_cam_* writers):
//   p32/p64  signed LEB128 (<= 5 / 10 bytes); uint32 arguments >= 2^31 arrive negative
//   colour   4 bytes: bits 8-15, 16-23, 24-31, then 0-7 of the uint32 (ESC|R<<8|G<<16|B<<24)
//   text     UTF-8 to the end of the payload (no NUL); cstr: UTF-8 ending in NUL
//   0x01 string            p64 time, p32 channel, text
//   0x02 string+colour     p64 time, p32 channel, colour, text
//   0x03 channel name      p64 time, p32 channel, p32 group, text
//   0x04 group name        p64 time, p32 group, text
//   0x05 visual            p64 time, cstr text, image bytes (to the end; any u32 long)
//   0x06 marker            p64 time, text
//   0x07 marker+colour     p64 time, colour, text
//   0x08 counter           p32 x12 (id, per_cpu, class, display, modifier, series, rendering,
//                          average_selection, average_cores, percentage, activity_count, cores),
//                          colour, activity_count x (cstr name, colour), cstr title, cstr name,
//                          cstr units, text description                          (no time)
//   0x09 counter value     p64 time, p32 core, p32 id, p64 value (p32 in version 4)
//   0x0a activity switch   p64 time, p32 core, p32 id, p32 activity, p32 tid
//   0x0b CAM track         p32 view, p32 track, p32 parent, text name             (no time)
//   0x0c CAM job           p32 view, p32 job, p32 track, p64 start, p64 duration, colour,
//                          p32 primary_dep, p32 n, n x p32 dep, text name
//   0x0d CAM view name     p32 view, text name                                    (no time)
//   0x0e CAM job start     p32 view, p32 job, p32 track, p64 time, colour, text name
//   0x0f CAM job set deps  p32 view, p32 job, p64 time, p32 primary_dep, p32 n, n x p32 dep
//   0x10 CAM job stop      p32 view, p32 job, p64 time
// Bytes after the last field of a message that does not end in a text are ignored: Streamline
// skips a message by its length.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "collectors/annotate/stream_tokenizer.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::annotate {

struct StringMsg {  // 0x01, 0x02
    std::int64_t time = 0;
    std::int32_t channel = 0;
    std::optional<std::uint32_t> colour;
    std::string text;
};
struct ChannelNameMsg {  // 0x03
    std::int64_t time = 0;
    std::int32_t channel = 0, group = 0;
    std::string name;
};
struct GroupNameMsg {  // 0x04
    std::int64_t time = 0;
    std::int32_t group = 0;
    std::string name;
};
struct VisualMsg {  // 0x05
    std::int64_t time = 0;
    std::string text;
    std::uint32_t image_bytes = 0;
};
struct MarkerMsg {  // 0x06, 0x07
    std::int64_t time = 0;
    std::optional<std::uint32_t> colour;
    std::string text;
};
struct CounterActivity {
    std::string name;
    std::uint32_t colour = 0;
};
struct CounterMsg {  // 0x08
    std::int32_t id = 0, per_cpu = 0, counter_class = 0, display = 0, modifier = 0,
                 series_composition = 0, rendering_type = 0, average_selection = 0,
                 average_cores = 0, percentage = 0, activity_count = 0, cores = 0;
    std::uint32_t colour = 0;
    std::vector<CounterActivity> activities;
    std::string title, name, units, description;
};
struct CounterValueMsg {  // 0x09
    std::int64_t time = 0;
    std::int32_t core = 0, id = 0;
    std::int64_t value = 0;
};
struct ActivitySwitchMsg {  // 0x0a
    std::int64_t time = 0;
    std::int32_t core = 0, id = 0, activity = 0, tid = 0;
};
struct CamTrackMsg {  // 0x0b
    std::int32_t view = 0, track = 0, parent = 0;
    std::string name;
};
struct CamJobMsg {  // 0x0c
    std::int32_t view = 0, job = 0, track = 0;
    std::int64_t start = 0, duration = 0;
    std::uint32_t colour = 0;
    std::int32_t primary_dep = 0;
    std::vector<std::int32_t> deps;
    std::string name;
};
struct CamViewNameMsg {  // 0x0d
    std::int32_t view = 0;
    std::string name;
};
struct CamJobStartMsg {  // 0x0e
    std::int32_t view = 0, job = 0, track = 0;
    std::int64_t time = 0;
    std::uint32_t colour = 0;
    std::string name;
};
struct CamJobSetDepsMsg {  // 0x0f
    std::int32_t view = 0, job = 0;
    std::int64_t time = 0;
    std::int32_t primary_dep = 0;
    std::vector<std::int32_t> deps;
};
struct CamJobStopMsg {  // 0x10
    std::int32_t view = 0, job = 0;
    std::int64_t time = 0;
};

using AnnotationMessage =
    std::variant<StringMsg, ChannelNameMsg, GroupNameMsg, VisualMsg, MarkerMsg, CounterMsg,
                 CounterValueMsg, ActivitySwitchMsg, CamTrackMsg, CamJobMsg, CamViewNameMsg,
                 CamJobStartMsg, CamJobSetDepsMsg, CamJobStopMsg>;

// Parses a message from its head (the whole payload, except for a visual longer than the head
// limit, whose text must then end within the head). Errors carry
// the offset in the stream, the message kind and the field.
Result<AnnotationMessage> parse_message(const MessageRecord& m);

// The library's colour bytes back to its uint32 (ESC | R<<8 | G<<16 | B<<24).
std::uint32_t colour_from_bytes(std::span<const std::uint8_t, 4> b);

}  // namespace apcgate::collectors::annotate
