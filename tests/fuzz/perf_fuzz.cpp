// libFuzzer target for everything the perf collector decodes from bytes it did not write: the
// ring-buffer record stream (tokenizer, parser, normalizer with tracepoint payloads, mapper),
// the wrap-around copy out of a ring, tracefs format files and payloads decoded with them, and
// the /proc and sysfs texts it reads. The first input byte picks the path.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "collectors/perf/event_mapper.hpp"
#include "collectors/perf/probe.hpp"
#include "collectors/perf/proc_reader.hpp"
#include "collectors/perf/record_normalizer.hpp"
#include "collectors/perf/record_parser.hpp"
#include "collectors/perf/record_tokenizer.hpp"
#include "collectors/perf/ring_buffer.hpp"
#include "collectors/perf/tracefs.hpp"
#include "collectors/perf/tracepoint_payloads.hpp"

namespace pf = apcgate::collectors::perf;

namespace {

// This machine's sched_switch format (tests/perf/data/sched_switch.format), abridged.
constexpr std::string_view kSwitchFormat =
    "name: sched_switch\nID: 372\nformat:\n"
    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
    "print fmt: \"x\", { 0x00000001, \"S\" }, { 0x00000080, \"I\" }\n";
constexpr std::string_view kIdleFormat =
    "name: cpu_idle\nformat:\n\tfield:u32 state;\toffset:8;\tsize:4;\tsigned:0;\n"
    "\tfield:u32 cpu_id;\toffset:12;\tsize:4;\tsigned:0;\n";

constexpr std::uint64_t kSideband =
    pf::kSampleIdentifier | pf::kSampleTid | pf::kSampleTime | pf::kSampleCpu;

void ring_stream(std::span<const std::uint8_t> bytes) {
    pf::LayoutTable layouts;
    // The ids of tests/perf/data/ring_echo.ids, then one of each other role.
    layouts.add(384, kSideband);
    layouts.add(385, kSideband | pf::kSampleRaw);
    layouts.add(1, kSideband | pf::kSampleIp | pf::kSamplePeriod | pf::kSampleCallchain);
    layouts.add(2, kSideband | pf::kSampleRaw);
    pf::NormalizerConfig config;
    config.sched_switch =
        *pf::SchedSwitchLayout::from(*pf::parse_tracepoint_format(kSwitchFormat, "f"));
    config.cpu_idle = *pf::CpuIdleLayout::from(*pf::parse_tracepoint_format(kIdleFormat, "f"));
    config.follow = !bytes.empty() && (bytes[0] & 1) != 0;
    config.switch_out_from_tracepoint = !bytes.empty() && (bytes[0] & 2) != 0;
    apcgate::collectors::ingest::IngestReport report("perf", "fuzz");
    pf::RecordNormalizer normalizer(config, report);
    normalizer.set_role(385, pf::EventRole::SchedSwitch);
    normalizer.set_role(1, pf::EventRole::ClockSampler);
    normalizer.set_role(2, pf::EventRole::CpuIdle);
    pf::RecordParser parser(layouts);
    pf::RecordTokenizer tokens(bytes, 0);
    std::vector<pf::TraceEvent> events;
    while (auto raw = tokens.next()) {
        auto rec = parser.parse(*raw, "fuzz");
        if (rec) normalizer.add(*rec, raw->offset + pf::kHeaderBytes, "fuzz", events);
    }
    (void)normalizer.take_lost();
    std::stable_sort(events.begin(), events.end(),
                     [](const auto& a, const auto& b) { return pf::time_of(a) < pf::time_of(b); });
    pf::EventMapper mapper(nullptr, 3);
    std::vector<apcgate::model::Event> out;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto ts = static_cast<apcgate::model::Nanos>(pf::time_of(events[i]) >> 1);
        mapper.map(events[i], ts, out);
        // Counter periods end between records, as the reader's counter reads do.
        if (i % 5 == 4)
            mapper.map(pf::ActivityTickEv{pf::time_of(events[i]), static_cast<std::int32_t>(i & 3)},
                       ts, out);
        if (out.size() > 100000) out.clear();
    }
}

void ring_copy(std::span<const std::uint8_t> bytes) {
    if (bytes.size() < 16) return;
    std::uint64_t tail = 0, head = 0;
    for (int i = 0; i < 8; ++i) {
        tail |= static_cast<std::uint64_t>(bytes[i]) << (8 * i);
        head |= static_cast<std::uint64_t>(bytes[8 + i]) << (8 * i);
    }
    const auto data = bytes.subspan(16);
    std::size_t size = 1;
    while (size * 2 <= data.size()) size *= 2;
    std::vector<std::uint8_t> out;
    if (pf::copy_ring(data.first(data.empty() ? 0 : size), tail, head, out)) ring_stream(out);
}

void tracepoint(std::span<const std::uint8_t> bytes) {
    const auto split =
        static_cast<std::size_t>(std::find(bytes.begin(), bytes.end(), 0) - bytes.begin());
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), split);  // NOLINT
    const auto payload = bytes.subspan(std::min(split + 1, bytes.size()));
    auto fmt = pf::parse_tracepoint_format(text, "fuzz");
    if (!fmt) return;
    (void)pf::highest_print_flag(fmt->print_fmt);
    if (auto l = pf::SchedSwitchLayout::from(*fmt)) {
        if (auto f = l->decode(payload, 0, "fuzz")) (void)l->wait_state(f->prev_state);
    }
    if (auto l = pf::CpuIdleLayout::from(*fmt)) (void)l->decode(payload, 0, "fuzz");
}

void texts(std::span<const std::uint8_t> bytes) {
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()),
                                bytes.size());  // NOLINT
    std::size_t bad = 0;
    (void)pf::parse_maps(text, &bad);
    (void)pf::parse_status_tgid(text);
    (void)pf::cpuinfo_cpuids(text);
    (void)pf::parse_cpu_list(text);
    (void)pf::tracefs_in_mounts(text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::span<const std::uint8_t> rest(data + 1, size - 1);
    switch (data[0] % 4) {
        case 0:
            ring_stream(rest);
            break;
        case 1:
            ring_copy(rest);
            break;
        case 2:
            tracepoint(rest);
            break;
        default:
            texts(rest);
            break;
    }
    return 0;
}
