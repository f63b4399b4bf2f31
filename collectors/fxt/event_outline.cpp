#include "collectors/fxt/event_outline.hpp"

#include "protocol/wire/fixed_load.hpp"

namespace apcgate::collectors::fxt {

namespace {

// The record's bytes, read front to back; every read is checked against their end first.
class Walk {
  public:
    Walk(std::span<const std::uint8_t> bytes, wire::Endian endian)
        : bytes_(bytes), endian_(endian) {}

    [[nodiscard]] bool word(std::uint64_t& v) {
        if (bytes_.size() - pos_ < kWordBytes) return false;
        v = wire::load_u64(bytes_.data() + pos_, endian_);
        pos_ += kWordBytes;
        return true;
    }
    [[nodiscard]] bool skip_word() {
        std::uint64_t unused = 0;
        return word(unused);
    }
    // A string ref's inline stream, if it has one (a table ref has no bytes here).
    [[nodiscard]] bool skip_string(std::uint64_t ref) {
        const auto r = static_cast<std::uint16_t>(ref);
        if (!is_inline_string(r)) return true;
        const std::size_t size = padded(inline_length(r));
        if (bytes_.size() - pos_ < size) return false;
        pos_ += size;
        return true;
    }
    // One argument: false where RecordCursor::arg fails.
    [[nodiscard]] bool skip_argument() {
        const std::size_t start = pos_;
        std::uint64_t h = 0;
        if (!word(h)) return false;
        const std::uint64_t words = bits(h, 4, 15);
        if (words == 0 || words > (bytes_.size() - start) / kWordBytes) return false;
        const std::size_t end = start + static_cast<std::size_t>(words) * kWordBytes;
        if (!skip_string(bits(h, 16, 31))) return false;
        switch (static_cast<ArgType>(bits(h, 0, 3))) {
            case ArgType::Int64:
            case ArgType::UInt64:
            case ArgType::Pointer:
            case ArgType::Koid:
            case ArgType::Double:
                if (!skip_word()) return false;
                break;
            case ArgType::String:
                if (!skip_string(bits(h, 32, 47))) return false;
                break;
            default:
                break;  // in the header word, or a type the parser skips by its size
        }
        if (pos_ > end) return false;  // content past the argument's size
        pos_ = end;                    // the size may cover fields newer than the parser
        return true;
    }

  private:
    std::span<const std::uint8_t> bytes_;
    wire::Endian endian_;
    std::size_t pos_ = kWordBytes;  // after the header word
};

}  // namespace

bool outline_event(const RawRecord& raw, wire::Endian endian, const ProviderTables& tables,
                   EventOutline& out) {
    if (raw.bytes.size() < kWordBytes) return false;
    const std::uint64_t h = raw.header;
    const auto type = bits(h, 16, 19);
    if (type > kLastEventType) return false;
    out.type = static_cast<EventType>(type);
    Walk walk(raw.bytes, endian);
    if (!walk.word(out.ticks)) return false;
    const auto thread_ref = static_cast<std::uint8_t>(bits(h, 24, 31));
    if (thread_ref == 0) {
        if (!walk.word(out.thread.pid) || !walk.word(out.thread.tid)) return false;
    } else {
        out.thread = tables.thread(thread_ref).value_or(ThreadKoids{});
    }
    if (!walk.skip_string(bits(h, 32, 47)) || !walk.skip_string(bits(h, 48, 63))) return false;
    const auto count = static_cast<unsigned>(bits(h, 20, 23));
    for (unsigned i = 0; i < count && i < kMaxArgs; ++i) {
        if (!walk.skip_argument()) return false;
    }
    return !has_extra_word(out.type) || walk.skip_word();
}

}  // namespace apcgate::collectors::fxt
