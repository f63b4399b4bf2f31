// The reference decode: what babeltrace2 (the CLI of the same library, Debian package
// babeltrace2) prints for a trace, counted per event name. Its sink.text.details component in
// compact mode writes one "{trace stream-class stream} Event `NAME` (id)" line per event, which
// keeps names with spaces unambiguous.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace apcgate::ctf_test {

struct Reference {
    int exit_code = -1;
    std::map<std::string, std::uint64_t> events;  // name -> count
    std::vector<std::string> sequence;            // the event names in the order printed
    std::uint64_t discarded_events = 0;
    std::uint64_t discarded_packets = 0;
    std::string stderr_text;
};

// True when the babeltrace2 command runs here.
bool babeltrace_available();
Reference babeltrace_reference(const std::filesystem::path& trace);

}  // namespace apcgate::ctf_test
