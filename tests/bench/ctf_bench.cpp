// CTF ingest throughput against its reference, libbabeltrace2 decoding alone, on the same trace:
//   BM_CtfReference  source.ctf.fs -> muxer -> sink.utils.dummy (what `babeltrace2 TRACE -c
//                    sink.utils.dummy` runs), in-process
//   BM_CtfIngest     the CTF source read to the end (decode + map), events handed to the poller
//   BM_CtfConvert    the same, with every event encoded into APC frames (what `convert` does,
//                    minus the file writes)
// On a shared machine wall time says little: each also reports `process_cpu_ms`, the CPU time of
// all the process's threads per iteration (the CTF source reads frames on a thread of its own,
// which the CPU column, the calling thread's, leaves out; the decoding worker process is in
// neither).
// The trace is babeltrace's multi-domains test trace (LTTng kernel + UST) unless
// APCGATE_CTF_BENCH_TRACE names another. The figure is the command-line one, on a large
// LTTng-UST trace made with the test program (build-ctf/tests/ctf/ctf_ust_app 1000000 in a
// session with one UST channel of 8 x 4 MiB blocking sub-buffers, every apcgate_ctf_test,
// tracef and tracelog event, and the vpid, vtid and procname contexts: 164 MiB, 3.3 M events):
//   /usr/bin/time babeltrace2 TRACE -c sink.utils.dummy
//   /usr/bin/time apcgate convert TRACE -o out.apc
#include <babeltrace2/babeltrace.h>
#include <benchmark/benchmark.h>
#include <time.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "collectors/ctf/ctf_ingest.hpp"
#include "protocol/apc/encoder.hpp"
#include "protocol/model/counter_catalog.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::ctf_bench {
namespace {

std::filesystem::path trace() {
    if (const char* env = std::getenv("APCGATE_CTF_BENCH_TRACE")) return env;
    // Not from __FILE__: with ccache's base_dir (.ci/test) it is relative to the build directory.
    return std::filesystem::path(apcgate::test_paths::testdata_dir()) / "ctf/succeed/multi-domains";
}

// The CTF source runs libbabeltrace2 in a worker process, the apcgate binary: the one of this
// build tree unless APCGATE_BINARY names another. The worker's CPU time is not the bench
// process's: process_cpu_ms leaves it out.
std::filesystem::path apcgate_binary() {
    if (const char* env = std::getenv("APCGATE_BINARY")) return env;
    return test_paths::apcgate_binary();
}

double process_cpu_ms() {
    timespec t{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// Adds the all-threads CPU time of `run` to the iteration's counters.
template <typename F>
void timed(benchmark::State& state, F run) {
    double cpu = 0;
    for (auto _ : state) {
        const double before = process_cpu_ms();
        run();
        cpu += process_cpu_ms() - before;
    }
    state.counters["process_cpu_ms"] =
        benchmark::Counter(cpu / static_cast<double>(state.iterations()));
}

class CountingSink : public apc::FrameSink {
  public:
    void frame(std::span<const std::uint8_t> body) override { bytes += body.size(); }
    std::uint64_t bytes = 0;
};

// Reads `trace` to the end; returns the number of model events (encoded when `encode`).
std::uint64_t ingest(bool encode) {
    auto source = collectors::ctf::open({trace(), {}, apcgate_binary()});
    if (!source) return 0;
    model::CounterCatalog catalog;
    (*source)->declare(catalog);
    model::Configuration all;
    for (const auto& c : catalog.counters()) all.counters.push_back({c.counter, c.event, {}, {}});
    const auto counters = model::CaptureCounters::assign(catalog, all);
    const model::CaptureSettings settings;
    if (!(*source)->start({settings, counters, (*source)->time_origin()})) return 0;
    CountingSink sink;
    apc::Encoder encoder(counters, sink);
    encoder.summary(apc::SummaryInfo{});
    std::vector<model::Event> events;
    std::uint64_t total = 0;
    for (bool finished = false; !finished;) {
        events.clear();
        finished = (*source)->poll(0, events).finished;
        for (const auto& e : events) {
            total += model::event_count(e);  // a span run stands for many
            if (encode) encoder.add(e);
        }
    }
    encoder.flush();
    benchmark::DoNotOptimize(sink.bytes);
    return total;
}

// libbabeltrace2 alone: one source.ctf.fs per trace directory, the muxer, the dummy sink.
void reference_run() {
    const bt_plugin* ctf = nullptr;
    const bt_plugin* utils = nullptr;
    bt_plugin_find("ctf", BT_TRUE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE, &ctf);
    bt_plugin_find("utils", BT_TRUE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE, &utils);
    if (ctf == nullptr || utils == nullptr) return;
    bt_graph* graph = bt_graph_create(0);
    const bt_component_filter* muxer = nullptr;
    const bt_component_sink* dummy = nullptr;
    bt_graph_add_filter_component(
        graph, bt_plugin_borrow_filter_component_class_by_name_const(utils, "muxer"), "muxer",
        nullptr, BT_LOGGING_LEVEL_NONE, &muxer);
    bt_graph_add_sink_component(graph,
                                bt_plugin_borrow_sink_component_class_by_name_const(utils, "dummy"),
                                "dummy", nullptr, BT_LOGGING_LEVEL_NONE, &dummy);
    std::vector<std::filesystem::path> dirs;
    if (std::filesystem::exists(trace() / "metadata")) dirs.push_back(trace());
    for (const auto& e : std::filesystem::recursive_directory_iterator(trace()))
        if (e.path().filename() == "metadata" && e.path().parent_path() != trace())
            dirs.push_back(e.path().parent_path());
    for (std::size_t i = 0; i < dirs.size(); ++i) {
        bt_value* params = bt_value_map_create();
        bt_value* inputs = nullptr;
        bt_value_map_insert_empty_array_entry(params, "inputs", &inputs);
        bt_value_array_append_string_element(inputs, dirs[i].c_str());
        const bt_component_source* src = nullptr;
        bt_graph_add_source_component(
            graph, bt_plugin_borrow_source_component_class_by_name_const(ctf, "fs"),
            ("src" + std::to_string(i)).c_str(), params, BT_LOGGING_LEVEL_NONE, &src);
        bt_value_put_ref(params);
        for (std::uint64_t p = 0;
             src != nullptr && p < bt_component_source_get_output_port_count(src); ++p)
            bt_graph_connect_ports(graph,
                                   bt_component_source_borrow_output_port_by_index_const(src, p),
                                   bt_component_filter_borrow_input_port_by_index_const(
                                       muxer, bt_component_filter_get_input_port_count(muxer) - 1),
                                   nullptr);
    }
    bt_graph_connect_ports(graph, bt_component_filter_borrow_output_port_by_index_const(muxer, 0),
                           bt_component_sink_borrow_input_port_by_index_const(dummy, 0), nullptr);
    bt_graph_run(graph);
    bt_current_thread_clear_error();
    bt_graph_put_ref(graph);
    bt_plugin_put_ref(ctf);
    bt_plugin_put_ref(utils);
}

void BM_CtfReference(benchmark::State& state) {
    timed(state, reference_run);
}
BENCHMARK(BM_CtfReference)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CtfIngest(benchmark::State& state) {
    std::uint64_t events = 0;
    timed(state, [&] { events = ingest(false); });
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * events));
}
BENCHMARK(BM_CtfIngest)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CtfConvert(benchmark::State& state) {
    std::uint64_t events = 0;
    timed(state, [&] { events = ingest(true); });
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * events));
}
BENCHMARK(BM_CtfConvert)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace apcgate::ctf_bench
