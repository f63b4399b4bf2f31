// libFuzzer entry for the CTF ingester: the input is a whole CTF trace, laid out as
//   metadata_length:u16le metadata[metadata_length] stream_bytes...
// written to a trace directory (`metadata` and one data stream file) and read to the end
// through libbabeltrace2, the way `apcgate convert` reads it. Every outcome but a crash, a hang
// or unbounded memory is fine: rejected metadata, a decoding error, or a capture.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "collectors/ctf/ctf_ingest.hpp"
#include "protocol/model/capture_settings.hpp"
#include "protocol/model/counter_catalog.hpp"

namespace {

namespace fs = std::filesystem;

void write_file(const fs::path& p, const std::uint8_t* data, std::size_t size) {
    std::FILE* f = std::fopen(p.c_str(), "wb");
    if (f == nullptr) return;
    if (size > 0) std::fwrite(data, 1, size, f);
    std::fclose(f);
}

const fs::path& trace_dir() {
    static const fs::path dir = [] {
        fs::path d = fs::temp_directory_path() / ("apcgate-ctf-fuzz-" + std::to_string(::getpid()));
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

}  // namespace

// libbabeltrace2 2.0 loses a few bytes on many malformed traces (in its metadata parser and its
// decoder, whose plugin has no frame pointers, so the reports cannot even be told apart from
// apcgate's): leak detection is off for this target only. AddressSanitizer and UBSan still check
// every access; apcgate's own handling of libbabeltrace2 references is checked for leaks by the
// ctf_test suite under the sanitizers (the CI's ASan run) on whole traces, good and bad.
extern "C" const char* __asan_default_options() {
    return "detect_leaks=0";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace apcgate;
    if (size < 2) return 0;
    const std::size_t meta_len = std::min<std::size_t>(size - 2, data[0] | (data[1] << 8));
    const fs::path& dir = trace_dir();
    write_file(dir / "metadata", data + 2, meta_len);
    write_file(dir / "stream", data + 2 + meta_len, size - 2 - meta_len);

    auto source = collectors::ctf::open({dir, {}});
    if (!source) return 0;
    model::CounterCatalog catalog;
    (*source)->declare(catalog);
    model::Configuration all;
    for (const auto& c : catalog.counters()) all.counters.push_back({c.counter, c.event, {}, {}});
    const model::CaptureCounters counters = model::CaptureCounters::assign(catalog, all);
    const model::CaptureSettings settings;
    const collectors::CaptureContext ctx{settings, counters, (*source)->time_origin()};
    if (!(*source)->start(ctx)) return 0;
    std::vector<model::Event> events;
    for (;;) {
        events.clear();
        if ((*source)->poll(0, events).finished) break;
    }
    (*source)->stop(0, events);
    return 0;
}
