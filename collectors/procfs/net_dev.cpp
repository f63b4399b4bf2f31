#include "collectors/procfs/net_dev.hpp"

#include "collectors/procfs/text_scan.hpp"

namespace apcgate::collectors::procfs {

int parse_net_dev(std::string_view text, std::vector<NetDevLine>& out) {
    out.clear();
    int malformed = 0;
    while (!text.empty()) {
        std::string_view line = next_line(text);
        if (trim(line).empty() || line.find('|') != std::string_view::npos) continue;
        // "  eth0: 19614613 573 0 ..." — old kernels print "eth0:19614613" with no space once the
        // number is wide, so split at the colon, not at whitespace. Numbers never contain ':',
        // so the last colon ends the name.
        const auto colon = line.rfind(':');
        if (colon == std::string_view::npos) {
            ++malformed;
            continue;
        }
        NetDevLine d;
        d.name = trim(line.substr(0, colon));
        line.remove_prefix(colon + 1);
        // Receive: bytes packets errs drop fifo frame compressed multicast; then Transmit bytes.
        const auto rx = next_u64(line);
        bool ok = rx.has_value() && !d.name.empty();
        for (int i = 0; ok && i < 7; ++i) ok = next_u64(line).has_value();
        const auto tx = ok ? next_u64(line) : std::nullopt;
        if (!tx) {
            ++malformed;
            continue;
        }
        d.rx_bytes = *rx;
        d.tx_bytes = *tx;
        out.push_back(d);
    }
    return malformed;
}

}  // namespace apcgate::collectors::procfs
