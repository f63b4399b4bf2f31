// libFuzzer entry for the FXT ingester: the input is an archive. Both passes (index, then the
// merged read with a tiny reorder buffer and tiny chunks, so the forced-release paths run too)
// and the mapping to model events; the one property checked beyond "no crash, no sanitizer
// report" is the source contract: events come out in non-decreasing time.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "collectors/fxt/archive_index.hpp"
#include "collectors/fxt/archive_reader.hpp"
#include "collectors/fxt/model_mapper.hpp"

namespace fxt = apcgate::collectors::fxt;
namespace model = apcgate::model;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> bytes(data, size);
    const fxt::ArchiveIndex index = fxt::build_index(bytes);

    model::CounterCatalog catalog;
    index.counters.declare(catalog);
    model::CounterSpec activity;
    activity.counter = fxt::kActivityCounter;
    activity.cls = model::CounterClass::Activity;
    catalog.add(activity);
    model::Configuration cfg;
    for (const auto& c : catalog.counters()) cfg.counters.push_back({c.counter, c.event, {}, {}});
    const auto counters = model::CaptureCounters::assign(catalog, cfg);
    const model::CaptureSettings settings;
    const model::Nanos origin =
        index.origin_ns == apcgate::collectors::kNever ? 0 : index.origin_ns;
    const apcgate::collectors::CaptureContext ctx{settings, counters, origin};

    apcgate::collectors::ingest::IngestReport report("fxt", "fuzz");
    fxt::KoidMap koids = index.koids;
    fxt::ArchiveReader::Limits limits;
    limits.max_items = 16;
    limits.max_bytes = 512;
    limits.buffer_capacity = 8;
    fxt::ArchiveReader reader(bytes, index, koids, report, limits);
    fxt::ModelMapper mapper(index, koids, ctx, report);

    std::vector<model::Event> out;
    std::vector<fxt::Item> items;
    mapper.prelude(origin, out);
    model::Nanos last = INT64_MIN;
    for (int polls = 0; polls < 1'000'000; ++polls) {
        items.clear();
        const auto chunk = reader.read(items);
        for (auto& item : items) mapper.map(item, out);
        reader.recycle(items);  // as FxtSource::poll does: the next chunk's texts reuse these
        mapper.flush(chunk.finished ? apcgate::collectors::kNever : chunk.watermark, out);
        for (const auto& e : out) {
            const model::Nanos ts = model::timestamp_of(e);
            if (ts < last) std::abort();  // events must come out in time order
            last = ts;
        }
        out.clear();
        if (chunk.finished) break;
    }
    return 0;
}
