// Reads a tracefs event description (events/<system>/<name>/format; the kernel's
// Documentation/trace/events.rst, "Event formats") so raw tracepoint payloads are decoded from
// the offsets this kernel reports rather than from offsets compiled in. Grammar:
//
//   format := "name: " NAME NL "ID: " UINT NL "format:" NL field-line* NL "print fmt: " TEXT
//   field-line := TAB "field:" DECL ";" TAB "offset:" UINT ";" TAB "size:" UINT ";"
//                 TAB "signed:" (0|1) ";" NL
//   DECL := C type and name, e.g. "char prev_comm[16]" or "__data_loc char[] filename"
//
// Lines that do not match are ignored (new kernels add keys); a field line with a missing or
// non-numeric offset/size is an error naming the line. No I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/wire/result.hpp"

namespace apcgate::collectors::perf {

struct TracepointField {
    std::string name;  // without any [N] suffix
    std::string type;  // the declaration before the name
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
    bool is_signed = false;
    bool data_loc = false;  // u32 (length << 16 | offset) pointing into the payload
};

struct TracepointFormat {
    std::string name;
    std::optional<std::uint32_t> id;
    std::vector<TracepointField> fields;
    std::string print_fmt;

    [[nodiscard]] const TracepointField* field(std::string_view name) const;
};

// `input` names the file in errors.
Result<TracepointFormat> parse_tracepoint_format(std::string_view text, std::string_view input);

}  // namespace apcgate::collectors::perf
