// libFuzzer target for the Barman ingester on hostile data stores: the input is a whole dump.
// It goes through the pure header reader, then through the source exactly as `apcgate convert`
// drives it (open: header + time scan, declare, describe, start, poll to the end), which runs the
// store geometry, block tokenizer, record parser, mapper and event ordering. The dump is written
// to a tmpfs file because the source reads files with pread.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

#include "collectors/barman/barman_source.hpp"
#include "collectors/barman/header.hpp"

namespace {

// This process's own dump file, removed when the fuzzer exits.
struct DumpPath {
    std::string path = std::string(::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") +
                       "/apcgate_barman_fuzz_" + std::to_string(::getpid()) + ".raw";
    ~DumpPath() { std::remove(path.c_str()); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace apcgate;
    const std::span<const std::uint8_t> input(data, size);
    (void)collectors::barman::read_header(input, size);

    static const DumpPath dump;
    const std::string& path = dump.path;
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) return 0;
    if (size > 0) std::fwrite(data, 1, size, f);
    std::fclose(f);

    auto source = collectors::barman::BarmanSource::open({path, {}});
    if (!source) return 0;
    model::CounterCatalog catalog;
    model::TargetInfo target;
    (*source)->declare(catalog);
    (*source)->describe(target);
    model::Configuration config;
    for (const auto& c : catalog.counters())
        config.counters.push_back({c.counter, c.event, {}, {}});
    const auto counters = model::CaptureCounters::assign(catalog, config);
    model::CaptureSettings settings;
    const collectors::CaptureContext ctx{settings, counters, (*source)->time_origin()};
    if (!(*source)->start(ctx)) return 0;
    std::vector<model::Event> out;
    model::Nanos last = 0;
    for (int polls = 0; polls < 1000; ++polls) {
        out.clear();
        const auto r = (*source)->poll(0, out);
        for (const auto& e : out) {
            // The source promises non-decreasing timestamps (each of a SampleRun's samples too).
            if (const auto* run = std::get_if<model::SampleRun>(&e)) {
                for (const auto& s : run->samples) {
                    if (s.ts < last) __builtin_trap();
                    last = s.ts;
                }
                continue;
            }
            if (model::timestamp_of(e) < last) __builtin_trap();
            last = model::timestamp_of(e);
        }
        if (r.finished) break;
    }
    out.clear();
    (*source)->stop(0, out);
    return 0;
}
