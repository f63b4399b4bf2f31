// Captured XML: what a capture was (target, counters and their keys). Written before APC Start
// (Streamline requests it) and into local captures; read back by inspect and the tests.
// type="Gator" tells Streamline the data uses the seed's frames.
#include <limits>

#include "xml/attribute_reader.hpp"
#include "xml/captured_perf_xml.hpp"
#include "xml/documents.hpp"
#include "xml/xml_document.hpp"
#include "xml/xml_writer.hpp"

namespace apcgate::xml {
namespace {

constexpr std::int64_t kMaxInt = std::numeric_limits<int>::max();
constexpr std::int64_t kMinInt64 = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMaxInt64 = std::numeric_limits<std::int64_t>::max();
constexpr std::uint64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t kMaxKey =
    static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max());

Status read_captured_attributes(pugi::xml_node root, CapturedDoc& out) {
    AttributeReader reader(root, kCapturedDoc);
    if (auto v = reader.text("type")) out.type = std::string(*v);
    if (auto v = reader.integer("protocol", 0, kMaxInt)) out.info.protocol = static_cast<int>(*v);
    if (auto v = reader.integer("created", kMinInt64, kMaxInt64)) out.info.created = *v;
    if (auto v = reader.boolean("local_capture")) out.info.local_capture = *v;
    if (!reader.ok()) return std::move(reader).take_error();
    return {};
}

// The seed says there is always one <target>; a document without one keeps the defaults.
Status read_target(pugi::xml_node target, model::TargetInfo& out) {
    if (!target) return {};
    AttributeReader reader(target, kCapturedDoc);
    if (auto v = reader.text("name")) out.name = std::string(*v);
    if (auto v = reader.integer("sample_rate", 0, kMaxInt))
        out.sample_rate_hz = static_cast<int>(*v);
    if (auto v = reader.integer("cores", 0, kMaxInt)) out.cores = static_cast<int>(*v);
    if (auto v = reader.hex("cpuid", kMaxU32)) out.cpuid = static_cast<std::uint32_t>(*v);
    if (auto v = reader.boolean("supports_live")) out.supports_live = *v;
    if (!reader.ok()) return std::move(reader).take_error();
    return {};
}

Result<CapturedCounter> read_counter(pugi::xml_node element) {
    AttributeReader reader(element, kCapturedDoc);
    CapturedCounter counter;
    // A counter without a key cannot be matched to any frame: that is an error, not a default.
    if (reader.required_text("key"))
        if (auto v = reader.hex("key", kMaxKey)) counter.key = static_cast<std::int32_t>(*v);
    if (auto v = reader.text("type")) counter.type = std::string(*v);
    if (auto v = reader.hex("event", kMaxU32)) counter.event = static_cast<std::uint32_t>(*v);
    if (auto v = reader.integer("count", kMinInt64, kMaxInt64)) counter.count = *v;
    if (auto v = reader.integer("cores", 0, kMaxInt)) counter.cores = static_cast<int>(*v);
    if (!reader.ok()) return std::move(reader).take_error();
    return counter;
}

}  // namespace

namespace {

// What both framings' captured.xml share after the root's own attributes: the capture's
// creation, the target (with its os for Perf-type captures) and the keyed counters.
std::string finish_captured(XmlWriter& w, const model::CaptureInfo& info,
                            const model::CaptureCounters& counters, std::string_view os) {
    if (info.created) w.attr_int("created", *info.created);
    if (info.local_capture) w.attr_bool("local_capture", true);

    const model::TargetInfo& t = info.target;
    w.open("target")
        .attr("name", t.name)
        .attr_int("sample_rate", t.sample_rate_hz)
        .attr_int("cores", t.cores)
        .attr_hex("cpuid", t.cpuid)
        .attr_bool("supports_live", t.supports_live);
    if (!os.empty()) w.attr("os", os);
    w.close();

    w.open("counters");
    for (const model::KeyedCounter& c : counters.enabled()) {
        w.open("counter")
            .attr_hex("key", static_cast<std::uint32_t>(c.key))
            .attr("type", c.counter);
        if (c.event) w.attr_hex("event", *c.event);
        if (c.count) w.attr_int("count", *c.count);
        if (c.cores) w.attr_int("cores", *c.cores);
        w.close();
    }
    return w.finish();
}

}  // namespace

std::string write_captured(const model::CaptureInfo& info, const model::CaptureCounters& counters) {
    XmlWriter w;
    w.open("captured")
        .attr("version", "1")
        .attr("type", "Gator")
        .attr_int("protocol", info.protocol);
    return finish_captured(w, info, counters, {});
}

std::string write_captured_perf(const model::CaptureInfo& info,
                                const model::CaptureCounters& counters, bool call_stacks) {
    XmlWriter w;
    w.open("captured")
        .attr("version", "1")
        .attr("backtrace_processing", call_stacks ? "perf" : "none")
        .attr("type", "Perf")
        .attr_int("protocol", info.protocol);
    return finish_captured(w, info, counters, "linux");
}

Result<CapturedDoc> parse_captured(std::string_view doc) {
    return without_exceptions(kCapturedDoc, [&]() -> Result<CapturedDoc> {
        auto loaded = load_document(doc, kCapturedDoc, "captured");
        if (!loaded) return std::move(loaded).take_error();

        CapturedDoc out;
        if (auto s = read_captured_attributes(loaded->root, out); !s)
            return std::move(s).take_error();
        if (auto s = read_target(loaded->root.child("target"), out.info.target); !s)
            return std::move(s).take_error();
        for (pugi::xml_node element : loaded->root.child("counters").children("counter")) {
            auto counter = read_counter(element);
            if (!counter) return std::move(counter).take_error();
            out.counters.push_back(std::move(*counter));
        }
        return out;
    });
}

}  // namespace apcgate::xml
