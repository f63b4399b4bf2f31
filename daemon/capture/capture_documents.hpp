// The three XML documents every capture carries (captured.xml, session.xml, events.xml), made
// in one place for the live session, `record` and `convert`: what differs between them is the
// framing and where the capture is made, not how the documents are written.
#pragma once

#include <string>

#include "daemon/capture/apc_directory.hpp"
#include "daemon/capture/collectors_setup.hpp"
#include "daemon/service/framing.hpp"
#include "protocol/model/capture_settings.hpp"
#include "protocol/model/counter_catalog.hpp"

namespace apcgate::daemon {

// Where the capture is made: streamed to a client (the client's own files say when), written
// on this machine by `record`, or converted from trace files, which are not sampled whatever
// the settings say.
enum class CaptureOrigin { Live, Record, Convert };

// captured.xml as the framing describes the capture: the target, the counters' keys and, for
// the Perf framing, gatord's protocol number and whether samples carry call stacks.
std::string captured_document(const CollectorSet& collectors,
                              const model::CaptureSettings& settings,
                              const model::CaptureCounters& counters, Framing framing,
                              CaptureOrigin origin);

// All three, for a capture directory.
CaptureDocuments capture_documents(const CollectorSet& collectors,
                                   const model::CaptureSettings& settings,
                                   const model::CaptureCounters& counters, Framing framing,
                                   CaptureOrigin origin);

}  // namespace apcgate::daemon
