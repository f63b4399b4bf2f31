#include "xml/captured_perf_xml.hpp"

#include "xml/xml_writer.hpp"

namespace apcgate::xml {

std::string write_captured_perf(const model::CaptureInfo& info,
                                const model::CaptureCounters& counters, bool call_stacks) {
    XmlWriter w;
    w.open("captured")
        .attr("version", "1")
        .attr("backtrace_processing", call_stacks ? "perf" : "none")
        .attr("type", "Perf")
        .attr_int("protocol", info.protocol);
    if (info.created) w.attr_int("created", *info.created);
    if (info.local_capture) w.attr_bool("local_capture", true);

    const model::TargetInfo& t = info.target;
    w.open("target")
        .attr("name", t.name)
        .attr_int("sample_rate", t.sample_rate_hz)
        .attr_int("cores", t.cores)
        .attr_hex("cpuid", t.cpuid)
        .attr_bool("supports_live", t.supports_live)
        .attr("os", "linux")
        .close();

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

}  // namespace apcgate::xml
