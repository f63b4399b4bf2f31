// libFuzzer target for the XRay reader `apcgate convert` and `serve --source xray:` run on
// untrusted logs: header detection, the FDR buffer index (with its resynchronisation) or the
// basic-mode run index, the tokenizer, verifier and expander of every buffer, the time-ordered
// merge, and the mapping of every call and event to annotations and counters. The input is one
// whole log; when its last byte is odd it is read a second time with the header swapped to
// the other byte order, so both orders get explored from one corpus.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "collectors/xray/event_text.hpp"
#include "collectors/xray/span_mapper.hpp"
#include "collectors/xray/xray_reader.hpp"

namespace cx = apcgate::collectors::xray;

namespace {

void read_all(std::span<const std::uint8_t> log) {
    apcgate::collectors::ingest::IngestReport report("xray", "fuzz");
    auto reader = cx::XrayReader::open(log, "fuzz", report);
    if (!reader) return;
    cx::XrayReader& r = **reader;
    (void)r.to_monotonic();  // any stamps: no overflow (UBSan), no crash
    cx::FunctionNames names;
    cx::SpanMapper mapper(names, r.stats(), "fuzz", "");
    std::vector<apcgate::model::Event> out;
    std::uint32_t thread = 0;
    const cx::CallEvent* e = nullptr;
    apcgate::model::Nanos last = 0;
    for (;;) {
        const auto step = r.next(thread, e);
        if (step == cx::XrayReader::Step::Done) break;
        if (step == cx::XrayReader::Step::ThreadEnd) {
            mapper.thread_end(last, thread, r.thread(thread), out);
        } else {
            if (e->ns < last) __builtin_trap();  // the merged timeline must never go back
            last = e->ns;
            mapper.event(e->ns, thread, r.thread(thread), *e, r.args(thread, *e), r.payload(*e),
                         out);
        }
        if (out.size() > 4096) out.clear();
    }
    r.stats().flush(report);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    read_all(std::span<const std::uint8_t>(data, size));
    if (size >= 4 && (data[size - 1] & 1U) != 0) {
        // The same bytes with the header's version and type swapped to the other byte order.
        std::vector<std::uint8_t> swapped(data, data + size);
        std::swap(swapped[0], swapped[1]);
        std::swap(swapped[2], swapped[3]);
        read_all(swapped);
    }
    return 0;
}
