// One way to describe a problem in a log: its kind, the input, the offset, the record kind (as
// declared in xray_stats.hpp) and what is wrong.
#pragma once

#include <cstdint>
#include <string>

#include "collectors/xray/xray_stats.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::xray {

inline Error problem(ErrorKind kind, const std::string& input, std::uint64_t offset, Stat record,
                     std::string message, std::string field = {}) {
    Error e = Error::at(kind, std::move(message));
    e.input = input;
    e.offset = offset;
    e.record = std::string(stat_name(record));
    e.field = std::move(field);
    return e;
}

}  // namespace apcgate::collectors::xray
