// The collector sets of trace inputs: `convert`'s and `serve --source fmt:PATH`'s, opened the
// same way.
#include <spdlog/spdlog.h>

#include "daemon/capture/collectors_setup.hpp"
#include "daemon/capture/ingest_registry.hpp"

namespace apcgate::daemon {

Result<CollectorSet> open_trace_inputs(const std::vector<std::string>& sources,
                                       const std::string& format,
                                       const std::vector<std::filesystem::path>& binaries,
                                       const std::vector<std::filesystem::path>& debug_dirs,
                                       const std::string& target_name) {
    std::vector<InputSpec> specs;
    for (const auto& s : sources) {
        auto spec = resolve_input(s, format);
        if (!spec) return std::move(spec).take_error();
        specs.push_back(*spec);
    }
    auto opened = open_inputs(specs, binaries, debug_dirs);
    if (!opened) return std::move(opened).take_error();
    CollectorSet set;
    for (auto& src : *opened) {
        set.inputs.push_back(src.get());
        set.sources.push_back(std::move(src));
    }
    set.declare_all();
    if (set.target.name.empty()) set.target.name = target_name;
    return set;
}

Result<CollectorSet> make_ingest_collectors(const std::vector<std::string>& sources,
                                            const std::string& format,
                                            const std::vector<std::filesystem::path>& binaries,
                                            const std::vector<std::filesystem::path>& debug_dirs) {
    auto set = open_trace_inputs(sources, format, binaries, debug_dirs, "trace");
    if (!set) return set;
    for (const auto* input : set->inputs)
        for (const auto& note : input->report().notes())
            spdlog::warn("source {}: {}", input->report().input(), note);
    // Said at start-up (each capture places the inputs again, and says it when that changes).
    set->placement_notes = place_inputs(set->inputs).notes;
    for (const auto& note : set->placement_notes) spdlog::warn("{}", note);
    return set;
}

}  // namespace apcgate::daemon
