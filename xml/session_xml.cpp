// Session XML: what Streamline's Capture & Analysis Options ask of a capture. We honour
// call_stack_unwinding, buffer_mode, sample_rate, duration and live_rate; everything else
// (images, energy_capture, target_host, ...) is kept only in the document text, which is written
// back unchanged as the capture's session.xml.
#include <limits>

#include "xml/attribute_reader.hpp"
#include "xml/documents.hpp"
#include "xml/xml_document.hpp"
#include "xml/xml_writer.hpp"

namespace apcgate::xml {
namespace {

using model::BufferMode;
using model::SampleRate;

constexpr std::int64_t kMaxInt = std::numeric_limits<int>::max();

// The seed lists streaming/small/medium/large; gatord adds normal. Accept all five.
const char* buffer_mode_name(BufferMode mode) {
    switch (mode) {
        case BufferMode::Streaming:
            return "streaming";
        case BufferMode::Small:
            return "small";
        case BufferMode::Medium:
            return "medium";
        case BufferMode::Normal:
            return "normal";
        case BufferMode::Large:
            return "large";
    }
    return "streaming";
}

const char* sample_rate_name(SampleRate rate) {
    switch (rate) {
        case SampleRate::None:
            return "none";
        case SampleRate::Low:
            return "low";
        case SampleRate::Normal:
            return "normal";
        case SampleRate::High:
            return "high";
    }
    return "normal";
}

}  // namespace

Result<model::CaptureSettings> parse_session(std::string_view doc) {
    return without_exceptions(kSessionDoc, [&]() -> Result<model::CaptureSettings> {
        auto loaded = load_document(doc, kSessionDoc, "session");
        if (!loaded) return std::move(loaded).take_error();

        model::CaptureSettings settings;
        AttributeReader reader(loaded->root, kSessionDoc);
        if (auto v = reader.boolean("call_stack_unwinding")) settings.call_stack_unwinding = *v;
        if (auto v = reader.choice<BufferMode>("buffer_mode", "buffer_mode",
                                               {{"streaming", BufferMode::Streaming},
                                                {"small", BufferMode::Small},
                                                {"medium", BufferMode::Medium},
                                                {"normal", BufferMode::Normal},
                                                {"large", BufferMode::Large}}))
            settings.buffer_mode = *v;
        if (auto v = reader.choice<SampleRate>("sample_rate", "sample_rate",
                                               {{"none", SampleRate::None},
                                                {"low", SampleRate::Low},
                                                {"normal", SampleRate::Normal},
                                                {"high", SampleRate::High}}))
            settings.sample_rate = *v;
        if (auto v = reader.integer("duration", 0, kMaxInt))
            settings.duration_s = static_cast<int>(*v);
        if (auto v = reader.integer("live_rate", 0, kMaxInt))
            settings.live_rate_ms = static_cast<int>(*v);
        if (!reader.ok()) return std::move(reader).take_error();

        settings.session_xml = std::string(doc);
        return settings;
    });
}

std::string write_session(const model::CaptureSettings& settings) {
    XmlWriter w;
    w.open("session")
        .attr("version", "1")
        .attr_bool("call_stack_unwinding", settings.call_stack_unwinding)
        .attr("buffer_mode", buffer_mode_name(settings.buffer_mode))
        .attr("sample_rate", sample_rate_name(settings.sample_rate))
        .attr_int("duration", settings.duration_s)
        .attr_int("live_rate", settings.live_rate_ms);
    return w.finish();
}

}  // namespace apcgate::xml
