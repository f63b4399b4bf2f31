// Dispatch on the record type in header bits [0..3] (spec "Record Types").
#include "collectors/fxt/record_parser.hpp"

namespace apcgate::collectors::fxt {

Status RecordParser::parse(const RawRecord& raw, const ProviderTables& tables, Record& out) const {
    RecordCursor c(raw, endian_, tables);
    switch (static_cast<RecordType>(c.field(0, 3))) {
        case RecordType::Metadata:
            detail::parse_metadata(c, out);
            break;
        case RecordType::Initialization:
            detail::parse_initialization(c, out);
            break;
        case RecordType::String:
            detail::parse_string(c, out);
            break;
        case RecordType::Thread:
            detail::parse_thread(c, out);
            break;
        case RecordType::Event:
            detail::parse_event(c, out);
            break;
        case RecordType::Blob:
            detail::parse_blob(c, out);
            break;
        case RecordType::UserspaceObject:
            detail::parse_userspace_object(c, out);
            break;
        case RecordType::KernelObject:
            detail::parse_kernel_object(c, out);
            break;
        case RecordType::Scheduling:
            detail::parse_scheduling(c, out);
            break;
        case RecordType::Log:
            detail::parse_log(c, out);
            break;
        case RecordType::LargeRecord:
            detail::parse_large(c, out);
            break;
        default:
            c.fail_header("unknown record type " + std::to_string(c.field(0, 3)), "record type");
            break;
    }
    if (!c.ok()) return c.take_error();
    return {};
}

bool RecordParser::parse_event(const RawRecord& raw, const ProviderTables& tables, EventRecord& out,
                               Error& failure) const {
    RecordCursor c(raw, endian_, tables);
    detail::parse_event(c, out);
    if (c.ok()) return true;
    failure = c.take_error();
    return false;
}

bool RecordParser::parse_scheduling(const RawRecord& raw, const ProviderTables& tables,
                                    SchedulingRecord& out, Error& failure) const {
    RecordCursor c(raw, endian_, tables);
    detail::parse_scheduling(c, out);
    if (c.ok()) return true;
    failure = c.take_error();
    return false;
}

}  // namespace apcgate::collectors::fxt
