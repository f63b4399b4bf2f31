#include "collectors/fxt/record_kinds.hpp"

#include "collectors/fxt/format.hpp"

namespace apcgate::collectors::fxt::kind {

namespace {

std::string_view of_metadata(std::uint64_t header) {
    switch (bits(header, 16, 19)) {
        case static_cast<unsigned>(MetadataType::ProviderInfo):
            return kProviderInfo;
        case static_cast<unsigned>(MetadataType::ProviderSection):
            return kProviderSection;
        case static_cast<unsigned>(MetadataType::ProviderEvent):
            return kProviderEvent;
        case static_cast<unsigned>(MetadataType::TraceInfo):
            return bits(header, 20, 23) == kTraceInfoMagic ? kMagic : kTraceInfo;
        default:
            return kMetadata;
    }
}

std::string_view of_event(std::uint64_t header) {
    static constexpr std::string_view kByType[] = {
        kInstant,      kCounter,  kDurationBegin, kDurationEnd, kDurationComplete, kAsyncBegin,
        kAsyncInstant, kAsyncEnd, kFlowBegin,     kFlowStep,    kFlowEnd};
    const auto type = bits(header, 16, 19);
    return type <= kLastEventType ? kByType[type] : kEvent;
}

std::string_view of_scheduling(std::uint64_t header) {
    switch (bits(header, 60, 63)) {
        case static_cast<unsigned>(SchedulingType::LegacyContextSwitch):
            return kLegacyContextSwitch;
        case static_cast<unsigned>(SchedulingType::ContextSwitch):
            return kContextSwitch;
        case static_cast<unsigned>(SchedulingType::ThreadWakeup):
            return kThreadWakeup;
        case static_cast<unsigned>(SchedulingType::FiberSwitch):
            return kFiberSwitch;
        default:
            return kScheduling;
    }
}

}  // namespace

std::string_view of_header(std::uint64_t header) {
    switch (static_cast<RecordType>(bits(header, 0, 3))) {
        case RecordType::Metadata:
            return of_metadata(header);
        case RecordType::Initialization:
            return kInitialization;
        case RecordType::String:
            return kString;
        case RecordType::Thread:
            return kThread;
        case RecordType::Event:
            return of_event(header);
        case RecordType::Blob:
            return kBlob;
        case RecordType::UserspaceObject:
            return kUserspaceObject;
        case RecordType::KernelObject:
            return kKernelObject;
        case RecordType::Scheduling:
            return of_scheduling(header);
        case RecordType::Log:
            return kLog;
        case RecordType::LargeRecord:
            return bits(header, 36, 39) == kLargeBlobType ? kLargeBlob : kLargeRecord;
    }
    return kUnknown;
}

}  // namespace apcgate::collectors::fxt::kind
