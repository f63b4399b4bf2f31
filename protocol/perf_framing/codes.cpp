#include "protocol/perf_framing/codes.hpp"

namespace apcgate::perf_framing {

std::string to_string(std::int32_t frame_type) {
    switch (static_cast<FrameType>(frame_type)) {
        case FrameType::Summary:
            return "Summary";
        case FrameType::BlockCounter:
            return "BlockCounter";
        case FrameType::External:
            return "External";
        case FrameType::PerfAttrs:
            return "PerfAttrs";
        case FrameType::PerfData:
            return "PerfData";
        case FrameType::PerfAux:
            return "PerfAux";
        case FrameType::PerfSync:
            return "PerfSync";
    }
    return "type " + std::to_string(frame_type);
}

std::string to_string(AttrsCode code) {
    switch (code) {
        case AttrsCode::Pea:
            return "PEA";
        case AttrsCode::Keys:
            return "KEYS";
        case AttrsCode::Format:
            return "FORMAT";
        case AttrsCode::Maps:
            return "MAPS";
        case AttrsCode::Comm:
            return "COMM";
        case AttrsCode::KeysOld:
            return "KEYS_OLD";
        case AttrsCode::OnlineCpu:
            return "ONLINE_CPU";
        case AttrsCode::OfflineCpu:
            return "OFFLINE_CPU";
        case AttrsCode::Kallsyms:
            return "KALLSYMS";
        case AttrsCode::Counters:
            return "COUNTERS";
        case AttrsCode::HeaderPage:
            return "HEADER_PAGE";
        case AttrsCode::HeaderEvent:
            return "HEADER_EVENT";
        case AttrsCode::MetricEventKey:
            return "METRIC_EVENT_KEY";
        case AttrsCode::KernelBuildId:
            return "KERNEL_BUILD_ID";
        case AttrsCode::KernelModuleBuildId:
            return "KERNEL_MODULE_BUILD_ID";
    }
    return "code " + std::to_string(static_cast<int>(code));
}

}  // namespace apcgate::perf_framing
