// A small FXT writer for the tests and the benchmark: builds archives record by record, with
// the bit layout of each header spelled out next to the code that packs it (spec:
// fuchsia.dev, "Fuchsia trace format"). It writes what the spec says and nothing checks its
// arguments, so tests can also build malformed records on purpose (raw_word, raw_header).
// Words go out little-endian, or big-endian for archives of that byte order; streams are bytes.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace apcgate::fxt_test {

// A string ref: table index (1..0x7fff), inline text, or empty.
struct Str {
    std::uint16_t index = 0;
    std::string_view text;
    bool is_inline = false;
};
inline Str idx(std::uint16_t i) {
    return {i, {}, false};
}
inline Str inl(std::string_view t) {
    return {0, t, true};
}

// A thread ref: table index (1..255), or an inline (process koid, thread koid) pair.
struct Thr {
    std::uint8_t index = 0;
    std::uint64_t pid = 0;
    std::uint64_t tid = 0;
};
inline Thr thr(std::uint8_t i) {
    return {i, 0, 0};
}
inline Thr inline_thread(std::uint64_t pid, std::uint64_t tid) {
    return {0, pid, tid};
}

struct ArgSpec {
    unsigned type = 0;  // spec "Argument types": 0 null .. 9 bool
    Str name;
    std::uint64_t value = 0;  // integer / pointer / koid / bool, or the double's bits
    Str text;                 // string value
};
inline ArgSpec arg_null(Str n) {
    return {0, n, 0, {}};
}
inline ArgSpec arg_i32(Str n, std::int32_t v) {
    return {1, n, static_cast<std::uint32_t>(v), {}};
}
inline ArgSpec arg_u32(Str n, std::uint32_t v) {
    return {2, n, v, {}};
}
inline ArgSpec arg_i64(Str n, std::int64_t v) {
    return {3, n, static_cast<std::uint64_t>(v), {}};
}
inline ArgSpec arg_u64(Str n, std::uint64_t v) {
    return {4, n, v, {}};
}
inline ArgSpec arg_double(Str n, double v) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof b);
    return {5, n, b, {}};
}
inline ArgSpec arg_string(Str n, Str v) {
    return {6, n, 0, v};
}
inline ArgSpec arg_pointer(Str n, std::uint64_t v) {
    return {7, n, v, {}};
}
inline ArgSpec arg_koid(Str n, std::uint64_t v) {
    return {8, n, v, {}};
}
inline ArgSpec arg_bool(Str n, bool v) {
    return {9, n, v ? 1U : 0U, {}};
}

class FxtWriter {
  public:
    explicit FxtWriter(bool big_endian = false) : big_(big_endian) {}

    [[nodiscard]] const std::vector<std::uint8_t>& bytes() const { return out_; }
    [[nodiscard]] std::vector<std::uint8_t> take() { return std::move(out_); }
    [[nodiscard]] std::size_t size() const { return out_.size(); }

    // One word in the archive's byte order, outside any record (for malformed input).
    void raw_word(std::uint64_t w) { put(out_, w); }

    // Magic number record: metadata type 4, trace info type 0, as one fixed word.
    void magic() { raw_word(0x0016547846040010ULL); }

    // Provider info: [0..3] 0 | [4..15] size | [16..19] 1 | [20..51] id | [52..59] name length.
    void provider_info(std::uint32_t id, std::string_view name) {
        Body b = body();
        stream(b, name);
        record(0, b, (1ULL << 16) | (std::uint64_t{id} << 20) | (std::uint64_t{name.size()} << 52));
    }
    // Provider section: [16..19] 2 | [20..51] id.
    void provider_section(std::uint32_t id) {
        record(0, body(), (2ULL << 16) | (std::uint64_t{id} << 20));
    }
    // Provider event: [16..19] 3 | [20..51] id | [52..55] event (0: buffer full).
    void provider_event(std::uint32_t id, std::uint32_t event) {
        record(0, body(), (3ULL << 16) | (std::uint64_t{id} << 20) | (std::uint64_t{event} << 52));
    }
    // Trace info other than the magic: [16..19] 4 | [20..23] trace info type.
    void trace_info(std::uint32_t type) {
        record(0, body(), (4ULL << 16) | (std::uint64_t{type} << 20));
    }

    // Initialization (type 1): header, ticks-per-second word.
    void initialization(std::uint64_t ticks_per_second) {
        Body b = body();
        put(b, ticks_per_second);
        record(1, b, 0);
    }
    // String (type 2): [16..30] index | [32..46] length, then the string stream.
    void string_record(std::uint16_t index, std::string_view s) {
        Body b = body();
        stream(b, s);
        record(2, b, (std::uint64_t{index} << 16) | (std::uint64_t{s.size()} << 32));
    }
    // Thread (type 3): [16..23] index, then process koid and thread koid words.
    void thread_record(std::uint8_t index, std::uint64_t pid, std::uint64_t tid) {
        Body b = body();
        put(b, pid);
        put(b, tid);
        record(3, b, std::uint64_t{index} << 16);
    }

    // Event (type 4): [16..19] event type | [20..23] arg count | [24..31] thread ref
    // | [32..47] category ref | [48..63] name ref; timestamp, [pid, tid], [category], [name],
    // arguments, then the event type's word (counter id, end time, correlation id) if any.
    void event(unsigned type, std::uint64_t ticks, Thr t, Str category, Str name,
               const std::vector<ArgSpec>& args = {}, std::optional<std::uint64_t> extra = {}) {
        Body b = body();
        put(b, ticks);
        thread(b, t);
        string(b, category);
        string(b, name);
        for (const auto& a : args) argument(b, a);
        if (extra) put(b, *extra);
        record(4, b,
               (std::uint64_t{type} << 16) | (std::uint64_t{args.size()} << 20) |
                   (std::uint64_t{t.index} << 24) | (std::uint64_t{ref(category)} << 32) |
                   (std::uint64_t{ref(name)} << 48));
    }

    // Blob (type 5): [16..31] name ref | [32..46] payload size | [48..55] blob type.
    void blob(Str name, std::string_view payload, std::uint8_t blob_type = 1) {
        Body b = body();
        string(b, name);
        stream(b, payload);
        record(5, b,
               (std::uint64_t{ref(name)} << 16) | (std::uint64_t{payload.size()} << 32) |
                   (std::uint64_t{blob_type} << 48));
    }
    // Large blob (type 15, large type 0): [4..35] size | [36..39] 0 | [40..43] format.
    // Format 0 word: [0..15] category | [16..31] name | [32..35] arg count | [36..43] thread;
    // format 1 word: [0..15] category | [16..31] name.
    void large_blob(unsigned format, Str category, Str name, std::uint64_t ticks, Thr t,
                    std::string_view payload) {
        Body b = body();
        std::uint64_t f = std::uint64_t{ref(category)} | (std::uint64_t{ref(name)} << 16);
        if (format == 0) f |= std::uint64_t{t.index} << 36;
        put(b, f);
        string(b, category);
        string(b, name);
        if (format == 0) {
            put(b, ticks);
            thread(b, t);
        }
        put(b, payload.size());
        stream(b, payload);
        const std::uint64_t words = 1 + b.size() / 8;
        std::uint64_t header = 15 | (words << 4) | (std::uint64_t{format} << 40);
        put(out_, header);
        out_.insert(out_.end(), b.begin(), b.end());
    }

    // Userspace object (type 6): [16..23] process thread ref | [24..39] name ref | [40..43] args;
    // pointer word, [process koid word], [name], arguments.
    void userspace_object(std::uint64_t pointer, Thr process, Str name,
                          const std::vector<ArgSpec>& args = {}) {
        Body b = body();
        put(b, pointer);
        if (process.index == 0) put(b, process.pid);
        string(b, name);
        for (const auto& a : args) argument(b, a);
        record(6, b,
               (std::uint64_t{process.index} << 16) | (std::uint64_t{ref(name)} << 24) |
                   (std::uint64_t{args.size()} << 40));
    }
    // Kernel object (type 7): [16..23] object type | [24..39] name ref | [40..43] args;
    // koid word, [name], arguments.
    void kernel_object(std::uint64_t koid, std::uint8_t type, Str name,
                       const std::vector<ArgSpec>& args = {}) {
        Body b = body();
        put(b, koid);
        string(b, name);
        for (const auto& a : args) argument(b, a);
        record(7, b,
               (std::uint64_t{type} << 16) | (std::uint64_t{ref(name)} << 24) |
                   (std::uint64_t{args.size()} << 40));
    }

    // Legacy context switch (type 8, sub-type 0): [16..23] cpu | [24..27] outgoing state
    // | [28..35] outgoing ref | [36..43] incoming ref | [44..51] out prio | [52..59] in prio.
    void legacy_context_switch(std::uint8_t cpu, unsigned state, Thr out, Thr in,
                               std::uint8_t out_prio, std::uint8_t in_prio, std::uint64_t ticks) {
        Body b = body();
        put(b, ticks);
        thread(b, out);
        thread(b, in);
        record(8, b,
               (std::uint64_t{cpu} << 16) | (std::uint64_t{state} << 24) |
                   (std::uint64_t{out.index} << 28) | (std::uint64_t{in.index} << 36) |
                   (std::uint64_t{out_prio} << 44) | (std::uint64_t{in_prio} << 52));
    }
    // Context switch (type 8, sub-type 1 in [60..63]): [16..19] args | [20..35] cpu
    // | [36..39] outgoing state; timestamp, outgoing tid, incoming tid, arguments.
    void context_switch(std::uint16_t cpu, unsigned state, std::uint64_t ticks,
                        std::uint64_t out_tid, std::uint64_t in_tid,
                        const std::vector<ArgSpec>& args = {}) {
        Body b = body();
        put(b, ticks);
        put(b, out_tid);
        put(b, in_tid);
        for (const auto& a : args) argument(b, a);
        record(8, b,
               (std::uint64_t{args.size()} << 16) | (std::uint64_t{cpu} << 20) |
                   (std::uint64_t{state} << 36) | (1ULL << 60));
    }
    // Thread wakeup (type 8, sub-type 2): [16..19] args | [20..35] cpu; timestamp, tid, args.
    void thread_wakeup(std::uint16_t cpu, std::uint64_t ticks, std::uint64_t tid,
                       const std::vector<ArgSpec>& args = {}) {
        Body b = body();
        put(b, ticks);
        put(b, tid);
        for (const auto& a : args) argument(b, a);
        record(8, b,
               (std::uint64_t{args.size()} << 16) | (std::uint64_t{cpu} << 20) | (2ULL << 60));
    }
    // Log (type 9): [16..30] message length | [32..39] thread ref; timestamp, [pid, tid], message.
    void log(std::uint64_t ticks, Thr t, std::string_view message) {
        Body b = body();
        put(b, ticks);
        thread(b, t);
        stream(b, message);
        record(9, b, (std::uint64_t{message.size()} << 16) | (std::uint64_t{t.index} << 32));
    }

    // Any record: `type`, the size computed from `payload_words`, and `fields` (bits 16..63).
    void raw_record(unsigned type, std::uint64_t fields,
                    const std::vector<std::uint64_t>& payload_words) {
        Body b = body();
        for (auto w : payload_words) put(b, w);
        record(type, b, fields);
    }

  private:
    using Body = std::vector<std::uint8_t>;
    static Body body() { return {}; }

    void put(Body& b, std::uint64_t w) const {
        for (int i = 0; i < 8; ++i) {
            const int shift = big_ ? 8 * (7 - i) : 8 * i;
            b.push_back(static_cast<std::uint8_t>(w >> shift));
        }
    }
    static void stream(Body& b, std::string_view s) {
        b.insert(b.end(), s.begin(), s.end());
        while (b.size() % 8 != 0) b.push_back(0);
    }
    static std::uint16_t ref(Str s) {
        return s.is_inline ? static_cast<std::uint16_t>(0x8000U | s.text.size()) : s.index;
    }
    static void string(Body& b, Str s) {
        if (s.is_inline) stream(b, s.text);
    }
    void thread(Body& b, Thr t) const {
        if (t.index != 0) return;
        put(b, t.pid);
        put(b, t.tid);
    }
    // Argument: [0..3] type | [4..15] size in words | [16..31] name ref | [32..63] value of
    // int32/uint32/bool, or [32..47] value ref of a string; then [name], [value word | value].
    void argument(Body& out, const ArgSpec& a) const {
        Body b;
        string(b, a.name);
        std::uint64_t header = a.type | (std::uint64_t{ref(a.name)} << 16);
        switch (a.type) {
            case 1:
            case 2:
            case 9:
                header |= (a.value & 0xffffffffULL) << 32;
                break;
            case 6:
                header |= std::uint64_t{ref(a.text)} << 32;
                string(b, a.text);
                break;
            case 3:
            case 4:
            case 5:
            case 7:
            case 8:
                put(b, a.value);
                break;
            default:
                break;
        }
        header |= (1 + b.size() / 8) << 4;
        put(out, header);
        out.insert(out.end(), b.begin(), b.end());
    }
    void record(unsigned type, const Body& b, std::uint64_t fields) {
        const std::uint64_t words = 1 + b.size() / 8;
        put(out_, type | (words << 4) | fields);
        out_.insert(out_.end(), b.begin(), b.end());
    }

    bool big_;
    std::vector<std::uint8_t> out_;
};

}  // namespace apcgate::fxt_test
