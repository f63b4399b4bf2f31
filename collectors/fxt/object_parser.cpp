// Blob, large blob, userspace object and kernel object records (spec "BLOB record", "Large BLOB
// record", "Userspace object record", "Kernel object record"):
//
//   blob (type 5) header: [16..31] name ref | [32..46] payload size | [48..55] blob type
//     [name stream], payload stream (padded)
//   large record (type 15) header: [4..35] size | [36..39] large type (0 = blob) | [40..43] format
//     format 0 (with metadata): word [0..15] category ref | [16..31] name ref
//                               | [32..35] argument count | [36..43] thread ref
//       [category stream] [name stream] timestamp word [pid word, tid word] argument*
//       blob size word, payload stream
//     format 1 (no metadata):   word [0..15] category ref | [16..31] name ref
//       [category stream] [name stream] blob size word, payload stream
//   userspace object (type 6) header: [16..23] process (thread ref) | [24..39] name ref
//                                     | [40..43] argument count
//     pointer word, [process koid word when the thread ref is 0], [name stream], argument*
//   kernel object (type 7) header: [16..23] object type | [24..39] name ref | [40..43] arg count
//     koid word, [name stream], argument*
#include "collectors/fxt/record_parser.hpp"

namespace apcgate::collectors::fxt::detail {

namespace {

// The payload is only checked to lie within the record: blobs are counted, not mapped.
void skip_payload(RecordCursor& c, std::uint64_t size) {
    if (size > SIZE_MAX - kWordBytes) {
        c.fail("blob size " + std::to_string(size) + " is too large", "blob payload");
        return;
    }
    (void)c.stream(static_cast<std::size_t>(size), "blob payload");
}

}  // namespace

void parse_blob(RecordCursor& c, Record& out) {
    BlobRecord r;
    r.name = c.string_ref(static_cast<std::uint16_t>(c.field(16, 31)), "blob name");
    r.size = c.field(32, 46);
    r.blob_type = static_cast<std::uint32_t>(c.field(48, 55));
    skip_payload(c, r.size);
    out = r;
}

void parse_large(RecordCursor& c, Record& out) {
    LargeBlobRecord r;
    if (c.field(36, 39) != kLargeBlobType) {
        c.fail_header("unknown large record type " + std::to_string(c.field(36, 39)),
                      "large record type");
        return;
    }
    r.format = static_cast<std::uint32_t>(c.field(40, 43));
    if (r.format > 1) {
        c.fail_header("unknown large blob format " + std::to_string(r.format), "blob format");
        return;
    }
    const std::uint64_t f = c.word("format header");
    r.category = c.string_ref(static_cast<std::uint16_t>(bits(f, 0, 15)), "category");
    r.name = c.string_ref(static_cast<std::uint16_t>(bits(f, 16, 31)), "name");
    if (r.format == 0) {
        r.ticks = c.word("timestamp");
        r.thread = c.thread_ref(static_cast<std::uint8_t>(bits(f, 36, 43)), "thread");
        ArgList args;  // read to find the payload; blobs are not mapped
        c.args(static_cast<unsigned>(bits(f, 32, 35)), args);
    }
    r.size = c.word("blob size");
    skip_payload(c, r.size);
    out = r;
}

void parse_userspace_object(RecordCursor& c, Record& out) {
    auto& r = out.emplace<UserspaceObjectRecord>();
    r.pointer = c.word("pointer");
    const auto process_ref = static_cast<std::uint8_t>(c.field(16, 23));
    // Only the process koid is inline here, not a koid pair.
    if (process_ref == 0) {
        r.pid = c.word("process koid");
    } else {
        r.pid = c.tables().thread(process_ref).value_or(ThreadKoids{}).pid;
    }
    r.name = c.string_ref(static_cast<std::uint16_t>(c.field(24, 39)), "name");
    c.args(static_cast<unsigned>(c.field(40, 43)), r.args);
}

void parse_kernel_object(RecordCursor& c, Record& out) {
    auto& r = out.emplace<KernelObjectRecord>();
    r.object_type = static_cast<std::uint32_t>(c.field(16, 23));
    r.koid = c.word("koid");
    r.name = c.string_ref(static_cast<std::uint16_t>(c.field(24, 39)), "name");
    c.args(static_cast<unsigned>(c.field(40, 43)), r.args);
}

}  // namespace apcgate::collectors::fxt::detail
