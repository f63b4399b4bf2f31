#include "daemon/capture/capture_documents.hpp"

#include <ctime>

#include "protocol/perf_framing/codes.hpp"
#include "xml/captured_perf_xml.hpp"
#include "xml/documents.hpp"

namespace apcgate::daemon {

std::string captured_document(const CollectorSet& collectors,
                              const model::CaptureSettings& settings,
                              const model::CaptureCounters& counters, Framing framing,
                              CaptureOrigin origin) {
    model::CaptureInfo info;
    info.target = collectors.target;
    if (origin != CaptureOrigin::Convert)
        info.target.sample_rate_hz = model::sample_rate_hz(settings.sample_rate);
    info.local_capture = origin != CaptureOrigin::Live;
    if (info.local_capture) info.created = static_cast<std::int64_t>(std::time(nullptr));
    if (framing == Framing::Gator) return xml::write_captured(info, counters);
    info.protocol = perf_framing::kPerfProtocolVersion;
    const bool call_stacks =
        settings.call_stack_unwinding && settings.sample_rate != model::SampleRate::None;
    return xml::write_captured_perf(info, counters, call_stacks);
}

CaptureDocuments capture_documents(const CollectorSet& collectors,
                                   const model::CaptureSettings& settings,
                                   const model::CaptureCounters& counters, Framing framing,
                                   CaptureOrigin origin) {
    return {captured_document(collectors, settings, counters, framing, origin),
            settings.session_xml.empty() ? xml::write_session(settings) : settings.session_xml,
            xml::write_events(collectors.catalog)};
}

}  // namespace apcgate::daemon
