// /proc/net/dev: bytes received and transmitted per interface.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace apcgate::collectors::procfs {

struct NetDevLine {
    std::string_view name;  // points into the parsed text
    std::uint64_t rx_bytes = 0;
    std::uint64_t tx_bytes = 0;
};

// Appends one entry per interface to `out` (cleared first); returns the number of malformed
// lines. The two header lines are recognised by their '|' and skipped.
int parse_net_dev(std::string_view text, std::vector<NetDevLine>& out);

// Whether an interface's traffic counts: everything but loopback, whose bytes never leave the
// machine. (Bridges and their ports both count, as in any per-interface sum.)
inline bool counts_as_network(std::string_view name) {
    return name != "lo";
}

}  // namespace apcgate::collectors::procfs
