// Every shared buffer Arm's agent wrote converts with `apcgate convert`, `inspect` accepts the
// capture, and the capture (decoded back with the APC decoder and rebuild_events) holds exactly
// the samples, PMU counter deltas, custom counter values, task switches, annotations and idle
// pairs its ground-truth log lists: all of them for the buffers that kept everything, the
// first records for the linear buffer that filled up, the last ones for the circular buffer
// that wrapped. The window is found from the capture alone (exactly one must match).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>

#include "daemon_process.hpp"
#include "groundtruth_log.hpp"
#include "protocol/apc/capture_stream.hpp"
#include "test_dir.hpp"
#include "tests/support/test_paths.hpp"
#include "xml/documents.hpp"

namespace apcgate::barman_test {
namespace {

const std::string kDir = std::string(apcgate::test_paths::testdata_dir()) + "/barman/";

// The generator's mmap layouts and PMU setup (from the buffers' headers; HeaderTest checks them
// against the reader): counter 0 is the cycle counter, 1 and 2 count events 0x08 and 0x11.
struct Image {
    std::uint64_t base, length, offset;
    const char* name;
};
constexpr Image kImages[] = {{0x400000, 0x10000, 0, "app.axf"},
                             {0x500000, 0x8000, 0x1000, "lib.axf"}};
const char* const kPmu[] = {"ARMv8_Cortex_A53_ccnt", "ARMv8_Cortex_A53_event_0x08",
                            "ARMv8_Cortex_A53_event_0x11"};

std::string line(const char* fmt, auto... args) {
    char b[512];
    std::snprintf(b, sizeof b, fmt, args...);
    return b;
}

std::string rgb(std::optional<model::Rgb> c) {
    return c ? line("%02x%02x%02x", c->r, c->g, c->b) : "-";
}
std::optional<model::Rgb> rgb_of(std::uint32_t v) {
    if (v == 0) return std::nullopt;
    return model::Rgb{static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8),
                      static_cast<std::uint8_t>(v)};
}

struct Content {
    std::vector<std::string> lines;  // sorted
    std::size_t drops = 0;           // values of the sampled "drops" series (not in the log)
    bool operator==(const Content&) const = default;
};

std::string annotation_line(std::uint64_t ts, std::uint32_t core, std::int32_t tid, int type,
                            std::int32_t channel, std::int32_t group,
                            std::optional<model::Rgb> color, const std::string& text) {
    return line("N %llu %u %d type%d ch%d g%d %s '%s'", static_cast<unsigned long long>(ts), core,
                tid, type, channel, group, rgb(color).c_str(), text.c_str());
}

// What the capture must hold for log records [first, first + count).
Content expected(const GroundTruth& g, std::size_t first, std::size_t count, bool evicted) {
    Content c;
    std::map<std::pair<std::uint32_t, std::size_t>, std::uint64_t> last;
    for (std::size_t i = first; i < first + count; ++i) {
        const LogRecord& r = g.records[i];
        const auto ts = static_cast<unsigned long long>(r.ts);
        switch (r.kind) {
            case LogRecord::Kind::Sample:
                ++c.drops;
                for (std::size_t k = 0; k < r.reads.size(); ++k) {
                    const auto key = std::make_pair(r.core, k);
                    const bool known = !evicted || last.count(key) != 0;
                    const std::uint64_t prev = last.count(key) ? last[key] : 0;
                    if (known)
                        c.lines.push_back(line("C %s %u %llu %llu", kPmu[k], r.core, ts,
                                               static_cast<unsigned long long>(r.reads[k] - prev)));
                    last[key] = r.reads[k];
                }
                if (r.pc) {
                    std::string image = "?";
                    unsigned long long offset = *r.pc;
                    for (const Image& im : kImages) {
                        if (*r.pc >= im.base && *r.pc < im.base + im.length) {
                            image = im.name;
                            offset = *r.pc - im.base + im.offset;
                            break;
                        }
                    }
                    c.lines.push_back(
                        line("B %llu %u %u %s 0x%llx", ts, r.core, r.task, image.c_str(), offset));
                }
                break;
            case LogRecord::Kind::Custom: {
                // Arm's agent stores a recorded series by its index within its chart (0 for both
                // "queue.depth" and "temp.celsius") and stores core 0 for a chart that is not
                // per-CPU ("queue"). So a temp value on core 0 is indistinguishable from a
                // depth value, and the reader's documented rule (series_resolver.hpp) gives it
                // to depth, the series the spec's global id 0 names.
                const bool depth = r.counter == "queue.depth";
                const std::uint32_t core = depth ? 0 : r.core;
                const char* name =
                    depth || core == 0 ? "Barman_queue_depth" : "Barman_temp_celsius";
                c.lines.push_back(line("V %s %u %llu %llu", name, core, ts,
                                       static_cast<unsigned long long>(r.value)));
                break;
            }
            case LogRecord::Kind::Switch:
                c.lines.push_back(
                    line("A %llu %u %u wait%d", ts, r.core, r.task, r.reason == 0 ? 1 : 2));
                break;
            case LogRecord::Kind::Annotation:
                c.lines.push_back(annotation_line(
                    r.ts, r.core, static_cast<std::int32_t>(r.task), r.annotation,
                    static_cast<std::int32_t>(r.channel), static_cast<std::int32_t>(r.group),
                    r.annotation <= 1 ? rgb_of(r.color) : std::nullopt, r.text));
                break;
            case LogRecord::Kind::Halt:
                c.lines.push_back(line("I %llu %u %d", ts, r.core, r.entered ? 0 : -1));
                break;
        }
    }
    std::sort(c.lines.begin(), c.lines.end());
    return c;
}

// What the capture holds, in the same form.
Content actual(const std::vector<model::Event>& events, const xml::CapturedDoc& captured) {
    std::map<std::int32_t, std::string> counter_of, cookie_of;
    for (const auto& k : captured.counters) counter_of[k.key] = k.type;
    Content c;
    for (const auto& event : events) {
        std::visit(
            [&](const auto& e) {
                using T = std::decay_t<decltype(e)>;
                const auto ts = static_cast<unsigned long long>(model::timestamp_of(event));
                if constexpr (std::is_same_v<T, model::CounterSample>) {
                    const std::string& name = counter_of[e.key];
                    if (name == "Barman_queue_drops")
                        ++c.drops;
                    else if (name == "apcgate_events")
                        return;  // the capture's own event rate: no logged record
                    else if (name.rfind("Barman_", 0) == 0)
                        c.lines.push_back(line("V %s %d %llu %lld", name.c_str(), e.core, ts,
                                               static_cast<long long>(e.value)));
                    else
                        c.lines.push_back(line("C %s %d %llu %lld", name.c_str(), e.core, ts,
                                               static_cast<long long>(e.value)));
                } else if constexpr (std::is_same_v<T, model::CookieName>) {
                    cookie_of[e.cookie] = e.name;
                } else if constexpr (std::is_same_v<T, model::Backtrace>) {
                    EXPECT_EQ(e.frames.size(), 1U);
                    const auto& f = e.frames.at(0);
                    const std::string image = cookie_of.count(f.cookie) ? cookie_of[f.cookie] : "?";
                    c.lines.push_back(line("B %llu %d %d %s 0x%llx", ts, e.core, e.tid,
                                           image.c_str(),
                                           static_cast<unsigned long long>(f.offset)));
                } else if constexpr (std::is_same_v<T, model::ActivitySwitch>) {
                    c.lines.push_back(
                        line("A %llu %d %d wait%d", ts, e.core, e.tid, static_cast<int>(e.wait)));
                } else if constexpr (std::is_same_v<T, model::Idle>) {
                    c.lines.push_back(line("I %llu %d %d", ts, e.core, e.state));
                } else if constexpr (std::is_same_v<T, model::Annotation>) {
                    const auto core = static_cast<std::uint32_t>(e.core);
                    if (const auto* s = std::get_if<model::StringAnnotation>(&e.body))
                        c.lines.push_back(annotation_line(e.ts, core, e.tid, 0, s->channel, 0,
                                                          s->color, s->text));
                    else if (const auto* m = std::get_if<model::MarkerAnnotation>(&e.body))
                        c.lines.push_back(
                            annotation_line(e.ts, core, e.tid, 1, 0, 0, m->color, m->text));
                    else if (const auto* ch = std::get_if<model::ChannelName>(&e.body))
                        c.lines.push_back(annotation_line(e.ts, core, e.tid, 2, ch->channel,
                                                          ch->group, std::nullopt, ch->name));
                    else if (const auto* gr = std::get_if<model::GroupName>(&e.body))
                        c.lines.push_back(annotation_line(e.ts, core, e.tid, 3, 0, gr->group,
                                                          std::nullopt, gr->name));
                    else
                        ADD_FAILURE() << "unexpected annotation kind";
                }
            },
            event);
    }
    std::sort(c.lines.begin(), c.lines.end());
    return c;
}

std::vector<std::uint8_t> slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

class GroundTruthTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GroundTruthTest, CaptureHoldsExactlyTheLoggedRecords) {
    const std::string buffer = GetParam();
    const GroundTruth truth = read_groundtruth(kDir + buffer + ".groundtruth.txt");
    ASSERT_GT(truth.records.size(), 50U);
    const TestDir scratch("barman_gt_" + buffer);
    const auto out = scratch.path() / "out.apc";
    const auto [rc, text] = e2e::run_apcgate({"convert", kDir + buffer, "-o", out.string()});
    ASSERT_EQ(rc, 0) << text;

    const auto [irc, json_text] = e2e::run_apcgate({"inspect", out.string(), "--json"});
    ASSERT_EQ(irc, 0) << json_text;
    const auto json = nlohmann::json::parse(json_text);
    EXPECT_TRUE(json["valid"].get<bool>());
    EXPECT_EQ(json["violations"].size(), 0U);
    EXPECT_EQ(json["target"]["name"], "realdata-host");
    EXPECT_EQ(json["target"]["sample_rate"], 1000);
    EXPECT_EQ(json["target"]["cores"], 2);
    // Beside the logged records, the capture's own event rate (checked apart from them below).
    bool own_rate = false;
    for (const auto& c : json["counters"])
        own_rate = own_rate || (c["type"] == "apcgate_events" && c["values"].get<int>() > 0);
    EXPECT_TRUE(own_rate);
    EXPECT_EQ(json["cores"]["0"], "Cortex-A53");
    EXPECT_EQ(json["cores"]["1"], "Cortex-A53");
    EXPECT_EQ(json["threads"]["2"], "worker-A");
    EXPECT_EQ(json["threads"]["3"], "worker-B");
    for (const auto& [tid, name] : truth.added_tasks)
        EXPECT_EQ(json["threads"][std::to_string(tid)], name);

    const auto captured_bytes = slurp(out / "captured.xml");
    auto captured = xml::parse_captured(std::string(captured_bytes.begin(), captured_bytes.end()));
    ASSERT_TRUE(captured) << captured.error().to_string();
    const auto data = slurp(out / "0000000000");
    const auto decoded = apc::decode_capture(data);
    ASSERT_FALSE(decoded.error) << decoded.error->to_string();
    auto events = apc::rebuild_events(decoded.frames);
    ASSERT_TRUE(events) << events.error().to_string();
    const Content got = actual(*events, *captured);

    // Which windows of the log this buffer may hold.
    const std::size_t n = truth.records.size();
    std::vector<std::pair<std::size_t, std::size_t>> windows;  // (first, count)
    const bool wrapped = buffer.find("circular_wrapped") != std::string::npos;
    if (buffer.find("linear_full") != std::string::npos) {
        for (std::size_t count = 1; count < n; ++count) windows.emplace_back(0, count);
    } else if (wrapped) {
        for (std::size_t first = 1; first < n; ++first) windows.emplace_back(first, n - first);
    } else {
        windows.emplace_back(0, n);
    }
    std::vector<std::pair<std::size_t, std::size_t>> matches;
    std::size_t best_diff = SIZE_MAX;
    std::vector<std::string> best_lines;
    for (const auto& [first, count] : windows) {
        Content want = expected(truth, first, count, wrapped);
        if (want == got) matches.emplace_back(first, count);
        std::vector<std::string> diff;
        std::set_symmetric_difference(want.lines.begin(), want.lines.end(), got.lines.begin(),
                                      got.lines.end(), std::back_inserter(diff));
        if (diff.size() < best_diff || (diff.empty() && want.drops != got.drops)) {
            best_diff = diff.size();
            best_lines = diff;
            best_lines.push_back("drops: want " + std::to_string(want.drops) + ", got " +
                                 std::to_string(got.drops));
        }
    }
    std::string shown;
    for (std::size_t i = 0; i < best_lines.size() && i < 30; ++i)
        shown += "  " + best_lines[i] + "\n";
    ASSERT_EQ(matches.size(), 1U) << "closest window differs in " << best_diff << " lines:\n"
                                  << shown;
    if (matches.empty()) return;
    EXPECT_GT(matches[0].second, 10U) << "the buffer should hold more than a handful of records";
    std::cout << buffer << ": records " << matches[0].first << ".."
              << matches[0].first + matches[0].second << " of " << n << ", " << got.lines.size()
              << " events compared\n";
}

TEST(GroundTruthLog, ParsesEveryLine) {
    const GroundTruth g = read_groundtruth(kDir + "barman64le_linear.raw.groundtruth.txt");
    std::size_t reads = 0;
    for (const auto& r : g.records) reads += r.reads.size();
    EXPECT_EQ(g.records.size() + reads + g.added_tasks.size(), g.lines);
    EXPECT_EQ(g.records.size(), 461U);
}

INSTANTIATE_TEST_SUITE_P(SharedBuffers, GroundTruthTest,
                         ::testing::Values("barman64le_linear.raw", "barman64le_linear_full.raw",
                                           "barman64le_circular_nowrap.raw",
                                           "barman64le_circular_wrapped.raw",
                                           "barman32be_linear.raw", "barman32be_linear_full.raw",
                                           "barman32be_circular_nowrap.raw",
                                           "barman32be_circular_wrapped.raw"),
                         [](const auto& param_info) {
                             std::string s = param_info.param;
                             return s.substr(0, s.find('.'));
                         });

}  // namespace
}  // namespace apcgate::barman_test
