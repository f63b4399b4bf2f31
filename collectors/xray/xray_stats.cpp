#include "collectors/xray/xray_stats.hpp"

namespace apcgate::collectors::xray {

std::string_view stat_name(Stat s) {
    switch (s) {
        case Stat::FileHeader:
            return "FileHeader";
        case Stat::BufferExtents:
            return "BufferExtents";
        case Stat::NewBuffer:
            return "NewBuffer";
        case Stat::EndOfBuffer:
            return "EndOfBuffer";
        case Stat::NewCpuId:
            return "NewCPUId";
        case Stat::TscWrap:
            return "TSCWrap";
        case Stat::WallClock:
            return "WallClockTime";
        case Stat::Pid:
            return "Pid";
        case Stat::CallArgument:
            return "CallArgument";
        case Stat::CustomEvent:
            return "CustomEvent";
        case Stat::TypedEvent:
            return "TypedEvent";
        case Stat::FunctionEnter:
            return "function-enter";
        case Stat::FunctionEnterArgs:
            return "function-enter-arg";
        case Stat::FunctionExit:
            return "function-exit";
        case Stat::FunctionTailExit:
            return "function-tail-exit";
        case Stat::Function:
            return "Function";
        case Stat::Metadata:
            return "Metadata";
        case Stat::BasicArgPayload:
            return "ArgPayload";
        case Stat::BasicRecord:
            return "BasicRecord";
        case Stat::Block:
            return "Block";
        case Stat::Count:
            break;
    }
    return "unknown";
}

void Stats::flush(ingest::IngestReport& report) {
    for (std::size_t i = 0; i < kStatCount; ++i) {
        const auto name = stat_name(static_cast<Stat>(i));
        if (read_[i] != 0) report.read(name, read_[i]);
        if (mapped_[i] != 0) report.mapped(name, mapped_[i]);
        if (skipped_[i] != 0) report.skipped(name, skipped_[i]);
    }
    // The whole table, zeros too: the report shows every XRay statistic once anything was read.
    report.add_statistics(statistics_);
    read_.fill(0);
    mapped_.fill(0);
    skipped_.fill(0);
    statistics_ = {};
}

}  // namespace apcgate::collectors::xray
