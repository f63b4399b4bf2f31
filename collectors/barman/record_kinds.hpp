// The record kinds the Barman ingester counts in its IngestReport and names in its errors,
// declared once here so the reader, the mapper and the tests spell them the same way.
#pragma once

#include <cstdint>
#include <string_view>

namespace apcgate::collectors::barman::kind {

inline constexpr std::string_view kHeader = "header";
inline constexpr std::string_view kBlock = "record block";               // a length-prefixed block
inline constexpr std::string_view kPadding = "padding block";            // skipped by design
inline constexpr std::string_view kSample = "counter sample";            // type 1
inline constexpr std::string_view kSamplePc = "counter sample with PC";  // type 2
inline constexpr std::string_view kTaskSwitch = "task switch";           // type 3
inline constexpr std::string_view kCustomCounter = "custom counter value";          // type 4
inline constexpr std::string_view kAnnotation = "annotation";                       // type 5
inline constexpr std::string_view kHalt = "halting event";                          // type 6
inline constexpr std::string_view kPcSample = "PC sample without task id";          // type 7 (v3)
inline constexpr std::string_view kEventCounter = "event counter without task id";  // type 8 (v3)
inline constexpr std::string_view kWarning = "warning";                             // type 9 (v3)
inline constexpr std::string_view kUnknown = "unknown record type";
// Custom counter values (types 4, 8) whose series could not be told apart (series_resolver.hpp):
// counted here as well as under their record kind.
inline constexpr std::string_view kAmbiguousSeries = "custom counter value, ambiguous series";

// The kind of a record by its record_type field.
// Record types are 1 to kTypes - 1; of_type() names any other kUnknown.
inline constexpr std::uint32_t kTypes = 10;

constexpr std::string_view of_type(std::uint32_t type) {
    switch (type) {
        case 1:
            return kSample;
        case 2:
            return kSamplePc;
        case 3:
            return kTaskSwitch;
        case 4:
            return kCustomCounter;
        case 5:
            return kAnnotation;
        case 6:
            return kHalt;
        case 7:
            return kPcSample;
        case 8:
            return kEventCounter;
        case 9:
            return kWarning;
        default:
            return kUnknown;
    }
}

}  // namespace apcgate::collectors::barman::kind
