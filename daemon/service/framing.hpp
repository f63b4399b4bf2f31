// Which frames a live capture writes (`--framing`, APCGATE_FRAMING): the seed's v6.8 set
// (captured.xml type="Gator", handshake "GATOR 680") or the Perf-type set gatord 9.x writes
// (type="Perf", "GATOR 950": the kernel's perf records forwarded as they are). Trace inputs
// (serve --source) always use the v6.8 set: their events are not perf records.
#pragma once

namespace apcgate::daemon {

enum class Framing { Gator, Perf };

}  // namespace apcgate::daemon
