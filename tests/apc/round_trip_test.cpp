// Encode -> decode round trip of a random mix of events (fixed seed), at the default frame cap
// and at small caps that force splitting: every event comes back with every field, in the
// order of its frame stream, and the output passes the frame rule checker.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "apc_test_support.hpp"
#include "protocol/apc/annotation_bytes.hpp"
#include "protocol/apc/decoder.hpp"
#include "protocol/apc/frame_rules.hpp"

namespace apcgate::apc {
namespace {

using testing::Bytes;
using testing::TestCapture;

class Generator {
  public:
    // `small`: backtraces short enough for a 64-byte frame, so none is trimmed.
    Generator(std::uint32_t seed, bool small) : rng_(seed), small_(small) {}

    int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    std::int64_t big() {
        return std::uniform_int_distribution<std::int64_t>(INT64_MIN, INT64_MAX)(rng_);
    }
    std::string text(int max) {
        std::string s(static_cast<std::size_t>(pick(0, max)), ' ');
        for (auto& c : s) c = static_cast<char>(pick(0x20, 0x7e));
        return s;
    }
    std::optional<model::Rgb> color() {
        if (pick(0, 1) == 0) return std::nullopt;
        return model::Rgb{static_cast<std::uint8_t>(pick(0, 255)),
                          static_cast<std::uint8_t>(pick(0, 255)),
                          static_cast<std::uint8_t>(pick(0, 255))};
    }
    Bytes bytes(int max) {
        Bytes b(static_cast<std::size_t>(pick(0, max)));
        for (auto& x : b) x = static_cast<std::uint8_t>(pick(0, 255));
        return b;
    }
    std::int32_t cookie() {
        const int c = pick(-1, 2000);
        return c == 1 ? 2 : c;  // 1 is End of Message in a backtrace
    }

    model::AnnotationBody annotation() {
        switch (pick(0, 6)) {
            case 0:
                return model::TextAnnotation{color(), text(120)};
            case 1:
                return model::StringAnnotation{pick(-3, 40), color(), text(120)};
            case 2:
                return model::MarkerAnnotation{color(), text(30)};
            case 3:
                return model::GroupName{pick(0, 9), text(20)};
            case 4:
                return model::ChannelName{pick(0, 99), pick(0, 9), text(20)};
            case 5:
                return model::VisualAnnotation{text(20), bytes(300)};
            default: {
                const std::string line = text(40) + "\n";  // raw bytes in the seed's text form
                return model::RawAnnotation{Bytes(line.begin(), line.end())};
            }
        }
    }

    model::Event event(model::Nanos ts) {
        const int core = pick(0, 3);
        const int tid = pick(1, 70000);
        switch (pick(0, 17)) {
            case 0:
                return model::CoreName{ts, core, pick(0, 0xfffff), text(12)};
            case 1:
                return model::CookieName{ts, core, pick(2, 5000), "/lib/" + text(16)};
            case 2:
                return model::ThreadName{ts, core, tid, text(15)};
            case 3:
                return model::ProcComm{ts, core, pick(1, 9000), tid, text(15), text(15)};
            case 4: {
                model::Backtrace b{ts, core, cookie(), pick(1, 9000), tid, {}};
                for (int i = pick(1, small_ ? 3 : 8); i > 0; --i)
                    b.frames.push_back({cookie(), big() >> pick(small_ ? 24 : 0, 63)});
                return b;
            }
            case 5:
            case 6:
            case 7:
                return model::CounterSample{ts, core, pick(testing::kBlkA, testing::kBlkB), big(),
                                            pick(0, 1) == 0 ? -1 : pick(1, 99)};
            case 8:
                return model::CounterSample{ts, core, pick(testing::kSingleA, testing::kSingleB),
                                            big(), -1};
            case 9:
                return model::SchedSwitch{ts, core, tid, static_cast<model::WaitState>(pick(0, 2))};
            case 10:
                return model::SchedThreadExit{ts, core, tid};
            case 11:
                return model::ActivityLink{ts, cookie(), pick(1, 9000), tid};
            case 12:
                return model::ActivitySwitch{
                    ts,         core,           testing::kActivityKey,
                    pick(0, 5), pick(-1, 9000), static_cast<model::WaitState>(pick(0, 2))};
            case 13:
                return model::TaskExit{ts, tid};
            case 14:
                return model::Idle{ts, core, pick(-1, 3)};
            case 15:
                return model::Annotation{ts, core, pick(1, 3), annotation()};
            case 16:
                return model::ExternalData{ts, pick(0, 2), bytes(150)};
            default:
                return model::ExternalDisconnect{ts, pick(0, 2)};
        }
    }

  private:
    std::mt19937 rng_;
    bool small_;
};

// Every field of an event the wire carries, as text; the fields it does not carry are left out.
std::string describe(const model::Event& ev) {
    auto n = [](auto v) { return std::to_string(v) + " "; };
    return std::visit(
        [&](const auto& e) -> std::string {
            using T = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<T, model::CoreName>)
                return "core " + n(e.core) + n(e.cpuid) + e.name;
            if constexpr (std::is_same_v<T, model::CookieName>)
                return "cookie " + n(e.core) + n(e.cookie) + e.name;
            if constexpr (std::is_same_v<T, model::ThreadName>)
                return "thread " + n(e.ts) + n(e.core) + n(e.tid) + e.name;
            if constexpr (std::is_same_v<T, model::ProcComm>)
                return "comm " + n(e.core) + n(e.pid) + n(e.tid) + e.image + "|" + e.comm;
            if constexpr (std::is_same_v<T, model::Backtrace>) {
                std::string s =
                    "bt " + n(e.ts) + n(e.core) + n(e.exec_cookie) + n(e.pid) + n(e.tid);
                for (const auto& f : e.frames) s += n(f.cookie) + n(f.offset);
                return s;
            }
            if constexpr (std::is_same_v<T, model::CounterSample>)
                return "counter " + n(e.ts) + n(e.core) + n(e.key) + n(e.value) + n(e.pid);
            if constexpr (std::is_same_v<T, model::SchedSwitch>)
                return "switch " + n(e.ts) + n(e.core) + n(e.tid) + n(static_cast<int>(e.state));
            if constexpr (std::is_same_v<T, model::SchedThreadExit>)
                return "exit " + n(e.ts) + n(e.core) + n(e.tid);
            if constexpr (std::is_same_v<T, model::ActivityLink>)
                return "link " + n(e.ts) + n(e.cookie) + n(e.pid) + n(e.tid);
            if constexpr (std::is_same_v<T, model::ActivitySwitch>)
                return "aswitch " + n(e.ts) + n(e.core) + n(e.key) + n(e.activity) + n(e.tid) +
                       n(static_cast<int>(e.wait));
            if constexpr (std::is_same_v<T, model::TaskExit>) return "texit " + n(e.ts) + n(e.tid);
            if constexpr (std::is_same_v<T, model::Idle>)
                return "idle " + n(e.ts) + n(e.core) + n(e.state);
            if constexpr (std::is_same_v<T, model::Annotation>) {
                Bytes b;  // RawAnnotation comes back parsed: compare the bytes
                append_annotation_bytes(e.body, b);
                return "annotation " + n(e.ts) + n(e.core) + n(e.tid) +
                       std::string(b.begin(), b.end());
            }
            return "external";  // compared per source id, see external_log()
        },
        ev);
}

// The stream an event travels in (frame type and header core, or 0): order holds within one.
std::pair<int, int> stream_of(const model::Event& ev, const model::CaptureCounters& counters) {
    const int kind = static_cast<int>(ev.index());
    return std::visit(
        [&](const auto& e) -> std::pair<int, int> {
            using T = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<T, model::CookieName> ||
                          std::is_same_v<T, model::ThreadName>)
                return {100, e.core};  // one Name frame per core
            if constexpr (std::is_same_v<T, model::SchedSwitch> ||
                          std::is_same_v<T, model::SchedThreadExit>)
                return {101, e.core};
            if constexpr (std::is_same_v<T, model::ActivityLink> ||
                          std::is_same_v<T, model::ActivitySwitch> ||
                          std::is_same_v<T, model::TaskExit>)
                return {102, 0};
            if constexpr (std::is_same_v<T, model::ProcComm> || std::is_same_v<T, model::Backtrace>)
                return {kind, e.core};
            if constexpr (std::is_same_v<T, model::CounterSample>)
                return {kind, static_cast<int>(counters.by_key(e.key)->delivery)};
            return {kind, 0};
        },
        ev);
}

std::vector<std::string> ordered(const std::vector<model::Event>& events,
                                 const model::CaptureCounters& c) {
    std::vector<std::pair<std::pair<int, int>, std::string>> keyed;
    for (const auto& e : events)
        if (!std::holds_alternative<model::ExternalData>(e) &&
            !std::holds_alternative<model::ExternalDisconnect>(e))
            keyed.emplace_back(stream_of(e, c), describe(e));
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    out.reserve(keyed.size());
    for (auto& [k, s] : keyed) out.push_back(std::move(s));
    return out;
}

// Per source id: its bytes, with "|disconnect|" where it disconnected.
std::map<int, std::string> external_log(const std::vector<model::Event>& events) {
    std::map<int, std::string> out;
    for (const auto& e : events) {
        if (const auto* x = std::get_if<model::ExternalData>(&e))
            out[x->id].append(x->bytes.begin(), x->bytes.end());
        if (const auto* d = std::get_if<model::ExternalDisconnect>(&e))
            out[d->id] += "|disconnect|";
    }
    return out;
}

class RoundTrip : public ::testing::TestWithParam<std::size_t> {};

TEST_P(RoundTrip, RandomMixComesBackUnchanged) {
    TestCapture t;
    Generator gen(20240607, GetParam() < 100);
    std::vector<model::Event> input;
    model::Nanos ts = 0;
    for (int i = 0; i < 5000; ++i) {
        // Repeated timestamps build multi-value blocks.
        ts += static_cast<model::Nanos>(gen.pick(0, 2)) * 997;
        input.push_back(gen.event(ts));
    }
    Encoder enc(t.counters, t.sink, EncoderOptions{GetParam()});
    const model::CoreName cores[] = {{0, 0, 0xd03, "Cortex-A53"}, {0, 1, 0xd07, "Cortex-A57"}};
    enc.summary(SummaryInfo{1, 2, 3, {{"a", "b"}}}, cores);
    for (std::size_t i = 0; i < input.size(); ++i) {
        enc.add(input[i]);
        if (i % 700 == 0) enc.flush();  // live-rate ticks in between
    }
    enc.flush();
    EXPECT_EQ(enc.stats().counts[EncoderStat::OutOfOrder], 0U);
    EXPECT_EQ(enc.stats().counts[EncoderStat::TruncatedNames], 0U);
    EXPECT_EQ(enc.stats().counts[EncoderStat::TruncatedBacktraces], 0U);

    std::vector<DecodedFrame> frames;
    std::uint64_t offset = 0;
    for (const auto& body : t.sink.frames) {
        ASSERT_LE(body.size(), std::max<std::size_t>(GetParam(), 64));
        auto f = decode_frame(body, offset);
        ASSERT_TRUE(f.ok()) << f.error().to_string();
        frames.push_back(std::move(f).value());
        offset += body.size();
    }
    std::vector<model::CounterKey> keys;
    for (const auto& k : t.counters.enabled()) keys.push_back(k.key);
    const auto violations = check_frame_rules(frames, keys, 4);  // pick(0, 3) cores
    for (const auto& v : violations) ADD_FAILURE() << v.offset << ": " << v.text;

    auto output = rebuild_events(frames);
    ASSERT_TRUE(output.ok()) << output.error().to_string();
    // The summary's core names come back as CoreName events first.
    std::vector<model::Event> expected(std::begin(cores), std::end(cores));
    expected.insert(expected.end(), input.begin(), input.end());
    EXPECT_EQ(ordered(*output, t.counters), ordered(expected, t.counters));
    EXPECT_EQ(external_log(*output), external_log(expected));
    if (GetParam() < 1024) {
        EXPECT_GT(enc.stats().counts[EncoderStat::SplitPayloads], 0U);
    }
}

INSTANTIATE_TEST_SUITE_P(Caps, RoundTrip, ::testing::Values(256 * 1024, 4096, 200, 64));

}  // namespace
}  // namespace apcgate::apc
