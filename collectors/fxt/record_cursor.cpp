#include "collectors/fxt/record_cursor.hpp"

#include "collectors/fxt/record_kinds.hpp"

namespace apcgate::collectors::fxt {

RecordCursor::RecordCursor(const RawRecord& raw, wire::Endian endian, const ProviderTables& tables)
    : reader_(raw.bytes, endian, raw.offset), tables_(tables), header_(raw.header) {
    reader_.skip(kWordBytes, "header");
}

std::uint64_t RecordCursor::field(unsigned lo, unsigned hi) const {
    return bits(header_, lo, hi);
}

std::string_view RecordCursor::stream(std::size_t length, std::string_view field) {
    const auto b = reader_.bytes(padded(length), field);
    if (b.empty()) return {};
    return {reinterpret_cast<const char*>(b.data()), length};  // NOLINT: UTF-8 bytes as chars
}

std::string_view RecordCursor::string_ref(std::uint16_t ref, std::string_view field) {
    if (is_inline_string(ref)) return stream(inline_length(ref), field);
    return tables_.string(ref);
}

ThreadKoids RecordCursor::thread_ref(std::uint8_t ref, std::string_view field) {
    if (ref == 0) {
        ThreadKoids t;
        t.pid = reader_.u64(field);
        t.tid = reader_.u64(field);
        return t;
    }
    // A lost thread record leaves koid 0, the same as the kernel's idle "thread".
    return tables_.thread(ref).value_or(ThreadKoids{});
}

bool RecordCursor::arg(Arg& out) {
    const std::size_t start = reader_.pos();
    const std::uint64_t h = reader_.u64("argument header");
    const std::uint64_t words = bits(h, 4, 15);
    if (!reader_.ok()) return false;
    if (words == 0) {
        reader_.fail("argument size is 0 words", "argument size");
        return false;
    }
    const std::size_t end = start + static_cast<std::size_t>(words) * kWordBytes;
    if (end > reader_.data().size()) {
        reader_.fail(
            "argument of " + std::to_string(words * kWordBytes) + " bytes overruns the record",
            "argument size");
        return false;
    }
    const auto type = bits(h, 0, 3);
    out.type = static_cast<ArgType>(type);
    out.name = string_ref(static_cast<std::uint16_t>(bits(h, 16, 31)), "argument name");
    switch (out.type) {
        case ArgType::Null:
            break;
        case ArgType::Int32:
            // Sign-extended, so i() reads it back as the int32 it was.
            out.value = static_cast<std::uint64_t>(static_cast<std::int32_t>(bits(h, 32, 63)));
            break;
        case ArgType::UInt32:
            out.value = bits(h, 32, 63);
            break;
        case ArgType::Int64:
        case ArgType::UInt64:
        case ArgType::Pointer:
        case ArgType::Koid:
        case ArgType::Double:
            out.value = word("argument value");
            break;
        case ArgType::String:
            out.s = string_ref(static_cast<std::uint16_t>(bits(h, 32, 47)), "argument value");
            break;
        case ArgType::Bool:
            out.value = bits(h, 32, 32);
            break;
    }
    if (reader_.ok() && reader_.pos() > end)
        reader_.fail("argument content overruns its size of " + std::to_string(words) + " words",
                     "argument size");
    reader_.seek(end);  // the size may cover fields newer than this reader
    return type <= kLastArgType;
}

void RecordCursor::args(unsigned count, ArgList& out) {
    out.count = 0;
    for (unsigned i = 0; i < count && reader_.ok(); ++i) {
        Arg a;
        if (arg(a) && reader_.ok()) out.items[out.count++] = a;
    }
}

Error RecordCursor::take_error() {
    Error e = reader_.take_error();
    e.record = std::string(kind::of_header(header_));
    return e;
}

}  // namespace apcgate::collectors::fxt
