// Shared helpers for the APC tests: a sink that keeps every frame, a capture with known keys,
// and a tiny builder for hand-written expected bytes.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

#include "protocol/apc/encoder.hpp"
#include "protocol/model/counter_catalog.hpp"

namespace apcgate::apc::testing {

using Bytes = std::vector<std::uint8_t>;

// Expected bytes: numbers are bytes, packed_string("ab") is a packed string (length byte, < 64
// chars) and raw("ab") the raw characters.
struct Part {
    Bytes b;
    Part(std::initializer_list<int> v) {  // NOLINT(google-explicit-constructor)
        for (int x : v) b.push_back(static_cast<std::uint8_t>(x));
    }
    explicit Part(Bytes v) : b(std::move(v)) {}
};
inline Part raw(std::string_view s) {
    return Part(Bytes(s.begin(), s.end()));
}
inline Part packed_string(std::string_view s) {
    Bytes b{static_cast<std::uint8_t>(s.size())};
    b.insert(b.end(), s.begin(), s.end());
    return Part(std::move(b));
}
inline Bytes cat(std::initializer_list<Part> parts) {
    Bytes out;
    for (const auto& p : parts) out.insert(out.end(), p.b.begin(), p.b.end());
    return out;
}

class CollectSink : public FrameSink {
  public:
    void frame(std::span<const std::uint8_t> body) override {
        frames.emplace_back(body.begin(), body.end());
    }
    std::vector<Bytes> frames;
};

// Keys: 3 blk_a and 4 blk_b (Block Counter), 5 single_a and 6 single_b (Counter), 7 activity.
inline model::CounterCatalog test_catalog() {
    model::CounterCatalog cat;
    auto add = [&cat](const char* name, model::Delivery d, model::CounterClass c) {
        model::CounterSpec s;
        s.counter = name;
        s.delivery = d;
        s.cls = c;
        cat.add(std::move(s));
    };
    add("blk_a", model::Delivery::Block, model::CounterClass::Delta);
    add("blk_b", model::Delivery::Block, model::CounterClass::Delta);
    add("single_a", model::Delivery::Single, model::CounterClass::Absolute);
    add("single_b", model::Delivery::Single, model::CounterClass::Absolute);
    add("activity", model::Delivery::Block, model::CounterClass::Activity);
    return cat;
}

struct TestCapture {
    model::CounterCatalog catalog = test_catalog();
    model::CaptureCounters counters = model::CaptureCounters::assign(catalog, catalog.defaults());
    CollectSink sink;

    // An encoder whose summary (frame 0) is already sent, with an empty SummaryInfo.
    Encoder encoder(std::size_t cap = std::size_t{256} * 1024) {
        Encoder e(counters, sink, EncoderOptions{cap});
        e.summary(SummaryInfo{});
        return e;
    }
};

inline constexpr int kBlkA = 3, kBlkB = 4, kSingleA = 5, kSingleB = 6, kActivityKey = 7;

}  // namespace apcgate::apc::testing
