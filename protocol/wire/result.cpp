#include "protocol/wire/result.hpp"

#include <cstdio>

namespace apcgate {

const char* kind_name(ErrorKind kind) {
    switch (kind) {
        case ErrorKind::Io:
            return "io";
        case ErrorKind::Truncated:
            return "truncated";
        case ErrorKind::Malformed:
            return "malformed";
        case ErrorKind::Unsupported:
            return "unsupported";
        case ErrorKind::Limit:
            return "limit";
        case ErrorKind::Usage:
            return "usage";
        case ErrorKind::Refused:
            return "refused";
        case ErrorKind::Internal:
            return "internal";
    }
    return "internal";
}

std::string Error::to_string() const {
    std::string out;
    auto sep = [&out] {
        if (!out.empty()) out += ": ";
    };
    if (!input.empty()) out += input;
    if (offset) {
        sep();
        char buf[64];
        std::snprintf(buf, sizeof buf, "offset %llu (0x%llx)",
                      static_cast<unsigned long long>(*offset),
                      static_cast<unsigned long long>(*offset));
        out += buf;
    }
    if (!record.empty()) {
        sep();
        out += "record '" + record + "'";
    }
    if (!field.empty()) {
        out += record.empty() ? (out.empty() ? "" : ": ") : ", ";
        out += "field '" + field + "'";
    }
    sep();
    out += message;
    if (!context.empty()) {
        out += " (";
        for (std::size_t i = 0; i < context.size(); ++i) {
            if (i != 0) out += "; ";
            out += "while " + context[i];
        }
        out += ")";
    }
    return out;
}

}  // namespace apcgate
