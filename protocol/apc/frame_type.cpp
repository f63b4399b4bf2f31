// Frame codes and which frame headers carry a core (gator-protocol-v6.8.txt, "Frame Header").
#include "protocol/apc/encoder.hpp"

namespace apcgate::apc {

const char* to_string(FrameType t) {
    switch (t) {
        case FrameType::Summary:
            return "Summary";
        case FrameType::Backtrace:
            return "Backtrace";
        case FrameType::Name:
            return "Name";
        case FrameType::Counter:
            return "Counter";
        case FrameType::BlockCounter:
            return "BlockCounter";
        case FrameType::Annotate:
            return "Annotate";
        case FrameType::SchedTrace:
            return "SchedTrace";
        case FrameType::Idle:
            return "Idle";
        case FrameType::External:
            return "External";
        case FrameType::Proc:
            return "Proc";
        case FrameType::Activity:
            return "Activity";
    }
    return "Unknown";
}

bool frame_has_core(FrameType t) {
    switch (t) {
        case FrameType::Backtrace:
        case FrameType::Name:
        case FrameType::BlockCounter:
        case FrameType::SchedTrace:
        case FrameType::Proc:
            return true;
        default:
            return false;
    }
}

}  // namespace apcgate::apc
