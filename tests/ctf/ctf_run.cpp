#include "ctf_run.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "collectors/ctf/ctf_ingest.hpp"
#include "tests/support/test_paths.hpp"

// In the sanitizer build: libbabeltrace2's own leaks on rejected metadata are suppressed (see
// lsan.supp), for this test program and the apcgate processes it starts. The plugin has no frame
// pointers, so the slow unwinder is needed for the suppressions to see past it.
// NOLINTNEXTLINE(bugprone-reserved-identifier,readability-identifier-naming): the runtime's name
extern "C" const char* __asan_default_options() {
    return "fast_unwind_on_malloc=0";
}
// NOLINTNEXTLINE(bugprone-reserved-identifier,readability-identifier-naming): the runtime's name
extern "C" const char* __lsan_default_suppressions() {
    return "leak:bt_graph_add_source_component_with_initialize_method_data\n"
           "leak:babeltrace-plugin-ctf.so\n";
}

namespace {
[[maybe_unused]] const bool kChildSanitizerOptions = [] {
    const std::string supp = std::string("suppressions=") + apcgate::test_paths::source_dir() +
                             "/tests/ctf/lsan.supp:fast_unwind_on_malloc=0";
    ::setenv("LSAN_OPTIONS", supp.c_str(), 0);
    return true;
}();
}  // namespace

namespace apcgate::ctf_test {

std::map<std::string, std::uint64_t> TraceRun::event_counts() const {
    std::map<std::string, std::uint64_t> out;
    for (const auto& [kind, s] : report().kinds())
        if (!kind.empty() && kind.front() != '(') out[kind] = s.read;
    return out;
}

std::map<std::string, std::uint64_t> TraceRun::annotations_per_channel() const {
    return ctf_test::annotations_per_channel(events);
}

std::vector<std::string> TraceRun::texts(const std::string& channel) const {
    return channel_texts(events, channel);
}

std::map<std::string, std::uint64_t> annotations_per_channel(
    const std::vector<model::Event>& events) {
    std::map<std::int32_t, std::string> names;
    std::map<std::string, std::uint64_t> out;
    for (const auto& e : events) {
        const auto* a = std::get_if<model::Annotation>(&e);
        if (a == nullptr) continue;
        if (const auto* c = std::get_if<model::ChannelName>(&a->body)) names[c->channel] = c->name;
        if (const auto* s = std::get_if<model::StringAnnotation>(&a->body); s && !s->text.empty())
            ++out[names[s->channel]];
    }
    return out;
}

std::vector<std::string> channel_texts(const std::vector<model::Event>& events,
                                       const std::string& channel) {
    std::map<std::int32_t, std::string> names;
    std::vector<std::string> out;
    for (const auto& e : events) {
        const auto* a = std::get_if<model::Annotation>(&e);
        if (a == nullptr) continue;
        if (const auto* c = std::get_if<model::ChannelName>(&a->body)) names[c->channel] = c->name;
        if (const auto* s = std::get_if<model::StringAnnotation>(&a->body);
            s && !s->text.empty() && names[s->channel] == channel)
            out.push_back(s->text);
    }
    return out;
}

std::map<std::string, std::int64_t> TraceRun::counter_totals() const {
    std::map<std::string, std::int64_t> out;
    for (const auto& s : all<model::CounterSample>()) {
        const auto* k = counters.by_key(s.key);
        out[k != nullptr ? k->counter : "?"] += s.value;
    }
    return out;
}

Result<std::unique_ptr<TraceRun>> run_ctf(const std::filesystem::path& input, int starts) {
    auto run = std::make_unique<TraceRun>();
    auto source = collectors::ctf::open({input, {}, apcgate::test_paths::apcgate_binary()});
    if (!source) return std::move(source).take_error();
    run->source = std::move(*source);
    run->source->declare(run->catalog);
    run->source->describe(run->target);
    model::Configuration everything;
    for (const auto& c : run->catalog.counters())
        everything.counters.push_back({c.counter, c.event, {}, {}});
    run->counters = model::CaptureCounters::assign(run->catalog, everything);
    run->zero = run->source->time_origin();
    for (int i = 0; i < starts; ++i) {
        run->events.clear();
        run->poll_sizes.clear();
        const collectors::CaptureContext ctx{run->settings, run->counters, run->zero};
        if (Status st = run->source->start(ctx); !st) return std::move(st).take_error();
        for (;;) {
            const std::size_t before = run->events.size();
            const auto r = run->source->poll(0, run->events);
            // The source hands string annotations out in span runs; the tests read them one
            // by one.
            model::expand_span_runs(run->events);
            run->poll_sizes.push_back(run->events.size() - before);
            if (r.finished) break;
        }
        run->source->stop(0, run->events);
    }
    return run;
}

std::filesystem::path libbabeltrace2_bug(const std::string& name,
                                         const std::filesystem::path& dir) {
    std::ifstream in(std::filesystem::path(apcgate::test_paths::source_dir()) /
                         "tests/ctf/libbabeltrace2_bugs" / (name + ".fuzz"),
                     std::ios::binary);
    const std::string d((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_GE(d.size(), 2U) << name;
    if (d.size() < 2) return dir;
    // metadata_length:u16le metadata stream_bytes (the fuzz target's layout)
    const std::size_t n = std::min<std::size_t>(
        d.size() - 2, static_cast<std::uint8_t>(d[0]) | (static_cast<std::uint8_t>(d[1]) << 8));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "metadata", std::ios::binary) << d.substr(2, n);
    std::ofstream(dir / "stream", std::ios::binary) << d.substr(2 + n);
    return dir;
}

std::filesystem::path scratch_dir(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() /
               ("apcgate-ctf-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace apcgate::ctf_test
