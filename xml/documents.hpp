// The XML documents of the seed protocol (gator-protocol-v6.8.txt, "XML"): parsed from what
// Streamline (or any client) sends, written from the counter catalog and the capture. Parsers
// accept what real clients send: no XML declaration, single quotes, unquoted attribute values
// (`<request type=counters/>`), unknown nodes and attributes; they never throw, and bound the
// input size. Writers emit UTF-8 with an XML declaration.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/model/capture_settings.hpp"
#include "protocol/model/counter_catalog.hpp"
#include "protocol/model/target_info.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::xml {

inline constexpr std::size_t kMaxDocumentBytes = std::size_t{1024} * 1024;

// ---- Request XML (command 0) -----------------------------------------------------------------
enum class RequestType { Events, Configuration, Counters, Captured, Defaults };
// Errors: not XML, root is not <request>, no type, or an unknown type (message names it).
Result<RequestType> parse_request(std::string_view doc);

// ---- Deliver XML (command 1) -----------------------------------------------------------------
enum class DeliveredKind { Session, Configuration, Other };
// Which document was delivered, from its root element (<session> / <configurations>).
DeliveredKind classify_delivered(std::string_view doc);

// Session XML: fields we honour (call_stack_unwinding, buffer_mode, sample_rate, duration,
// live_rate) parsed into settings; `session_xml` keeps the document as delivered.
// buffer_mode: streaming|small|medium|normal|large; sample_rate: none|low|normal|high.
// Unknown enum values or malformed numbers are errors naming the attribute.
Result<model::CaptureSettings> parse_session(std::string_view doc);
// A session document for local captures made without one (from settings).
std::string write_session(const model::CaptureSettings& settings);

// Configuration XML: revision 2 or 3 (anything else is an error), entries with counter, event
// (hex, with or without 0x), count, cores.
Result<model::Configuration> parse_configuration(std::string_view doc);
std::string write_configuration(const model::Configuration& config);  // revision="3"

// ---- Documents written from the catalog ------------------------------------------------------
std::string write_events(const model::CounterCatalog& catalog);
std::string write_counters(const model::CounterCatalog& catalog);

// Captured XML: <captured version="1" type="Gator" protocol=".." [created=".."
// local_capture="yes"]> with <target> and <counters> (key in hex, type, event, count, cores).
std::string write_captured(const model::CaptureInfo& info, const model::CaptureCounters& counters);

// ---- Reading captures back (inspect, tests) --------------------------------------------------
struct CapturedCounter {
    std::int32_t key = 0;
    std::string type;
    std::optional<std::uint32_t> event;
    std::optional<std::int64_t> count;
    std::optional<int> cores;  // added: written by write_captured, read back for round trips
};
struct CapturedDoc {
    model::CaptureInfo info;
    std::string type;  // "Gator"
    std::vector<CapturedCounter> counters;
};
Result<CapturedDoc> parse_captured(std::string_view doc);

// Events XML read back: counter name -> (category, title, name, class, units) for display.
// An event of a counter_set category (no `counter` attribute) reads back with `counter` set to
// the set's name and `event` to its number, so slot PREFIX_cntN with event E matches
// (PREFIX_cnt, E). `cls` is "delta" when the document omits class (its default).
struct EventInfo {
    std::string counter, category, title, name, cls, units;
    std::string display;                 // "" when the attribute is absent (the class's default)
    std::optional<std::uint32_t> event;  // added: the event attribute, when present
    double multiplier = 1.0;             // the multiplier attribute (values are shown times it)
};
Result<std::vector<EventInfo>> parse_events(std::string_view doc);

// Counters XML read back (added; inspect and tests): every <counter name>, in document order.
Result<std::vector<std::string>> parse_counters(std::string_view doc);

}  // namespace apcgate::xml
