#include "synthetic_capture.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>

#include "protocol/apc/encoder.hpp"
#include "protocol/model/counter_catalog.hpp"

namespace apcgate::analysis_test {

namespace {

// [int32 LE length][body] per frame: the local-capture data file.
class FileSink : public apc::FrameSink {
  public:
    explicit FileSink(const std::filesystem::path& path) : out_(path, std::ios::binary) {}
    void frame(std::span<const std::uint8_t> body) override {
        const auto n = static_cast<std::uint32_t>(body.size());
        const char len[4] = {static_cast<char>(n & 0xff), static_cast<char>((n >> 8) & 0xff),
                             static_cast<char>((n >> 16) & 0xff), static_cast<char>(n >> 24)};
        out_.write(len, 4);
        out_.write(reinterpret_cast<const char*>(body.data()),  // NOLINT: ofstream takes char
                   static_cast<std::streamsize>(body.size()));
    }

  private:
    std::ofstream out_;
};

}  // namespace

void write_capture(const std::filesystem::path& like, const std::filesystem::path& dir,
                   const std::vector<model::Event>& events) {
    std::filesystem::create_directories(dir);
    for (const char* doc : {"captured.xml", "session.xml", "events.xml"})
        std::filesystem::copy_file(like / doc, dir / doc,
                                   std::filesystem::copy_options::overwrite_existing);
    const model::CounterCatalog catalog;
    const model::CaptureCounters counters = model::CaptureCounters::assign(catalog, {});
    FileSink sink(dir / "0000000000");
    apc::Encoder enc(counters, sink);
    enc.summary(apc::SummaryInfo{});
    std::vector<model::Event> sorted = events;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const model::Event& a, const model::Event& b) {
                         return model::timestamp_of(a) < model::timestamp_of(b);
                     });
    for (const auto& e : sorted) enc.add(e);
    enc.flush();
}

void add_spans(std::vector<model::Event>& events, const std::string& name, std::int32_t channel,
               std::int64_t start, std::int64_t duration_ns, int count) {
    std::int64_t ts = start;
    for (int i = 0; i < count; ++i) {
        events.emplace_back(model::Annotation{
            ts, 0, 1,
            model::StringAnnotation{channel, std::nullopt, name + " [" + std::to_string(i) + "]"}});
        ts += duration_ns;
        events.emplace_back(
            model::Annotation{ts, 0, 1, model::StringAnnotation{channel, std::nullopt, {}}});
        ts += 10;
    }
}

}  // namespace apcgate::analysis_test
