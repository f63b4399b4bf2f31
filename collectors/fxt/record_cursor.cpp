#include "collectors/fxt/record_cursor.hpp"

#include <algorithm>

#include "collectors/fxt/record_kinds.hpp"

namespace apcgate::collectors::fxt {

RecordCursor::RecordCursor(const RawRecord& raw, wire::Endian endian, const ProviderTables& tables)
    : data_(raw.bytes), offset_(raw.offset), endian_(endian), tables_(tables), header_(raw.header) {
    if (data_.size() < kWordBytes) {
        pos_ = 0;
        reader().skip(kWordBytes, "header");
        pos_ = reader_->pos();
    }
}

wire::ByteReader& RecordCursor::reader() {
    if (!reader_) {
        reader_.emplace(data_, endian_, offset_);
        reader_->set_whole_record();  // the tokenizer cut it out by its size
        reader_->seek(pos_);
    }
    return *reader_;
}

std::uint64_t RecordCursor::checked_word(std::string_view field) {
    wire::ByteReader& r = reader();
    const std::uint64_t v = r.u64(field);
    pos_ = r.pos();
    return v;
}

void RecordCursor::seek(std::size_t pos) {
    if (!reader_ && pos <= data_.size()) {
        pos_ = pos;
        return;
    }
    reader().seek(pos);
    pos_ = reader_->pos();
}

std::string_view RecordCursor::stream(std::size_t length, std::string_view field) {
    const std::size_t size = padded(length);
    if (!reader_ && size >= length && data_.size() - pos_ >= size) {
        const auto* p = reinterpret_cast<const char*>(data_.data() + pos_);  // NOLINT: UTF-8
        pos_ += size;
        return {p, length};
    }
    wire::ByteReader& r = reader();
    const auto b = r.bytes(size, field);
    pos_ = r.pos();
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
        t.pid = word(field);
        t.tid = word(field);
        return t;
    }
    // A lost thread record leaves koid 0, the same as the kernel's idle "thread".
    return tables_.thread(ref).value_or(ThreadKoids{});
}

bool RecordCursor::arg(Arg& out) {
    const std::size_t start = pos_;
    const std::uint64_t h = word("argument header");
    const std::uint64_t words = bits(h, 4, 15);
    if (!ok()) return false;
    if (words == 0) {
        fail("argument size is 0 words", "argument size");
        return false;
    }
    const std::size_t end = start + static_cast<std::size_t>(words) * kWordBytes;
    if (end > data_.size()) {
        fail("argument of " + std::to_string(words * kWordBytes) + " bytes overruns the record",
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
    if (ok() && pos_ > end)
        fail("argument content overruns its size of " + std::to_string(words) + " words",
             "argument size");
    seek(end);  // the size may cover fields newer than this reader
    return type <= kLastArgType;
}

void RecordCursor::args(unsigned count, ArgList& out) {
    out.count = 0;
    // Read in place (a copy of a whole Arg per argument showed in profiles), into the slot
    // after the kept ones: one that is skipped or fails is overwritten or left past `count`.
    for (unsigned i = 0; i < count && i < kMaxArgs && ok(); ++i) {
        Arg& a = out.items[out.count];
        a.s = {};  // what the argument's type does not set reads as empty, as in `Arg{}`
        a.value = 0;
        if (arg(a) && ok()) ++out.count;
    }
}

Error RecordCursor::take_error() {
    Error e = reader().take_error();
    e.record = std::string(kind::of_header(header_));
    return e;
}

}  // namespace apcgate::collectors::fxt
