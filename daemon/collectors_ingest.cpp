// The collector set of `serve --source fmt:PATH`: trace inputs streamed as a capture.
#include <spdlog/spdlog.h>

#include "daemon/cli.hpp"
#include "daemon/ingest_registry.hpp"

namespace apcgate::daemon {

Result<CollectorSet> make_ingest_collectors(const std::vector<std::string>& sources,
                                            const std::string& format,
                                            const std::vector<std::filesystem::path>& binaries,
                                            const std::vector<std::filesystem::path>& debug_dirs) {
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
        for (const auto& note : src->report().notes())
            spdlog::warn("source {}: {}", src->report().input(), note);
        set.inputs.push_back(src.get());
        set.sources.push_back(std::move(src));
    }
    // Said at start-up (each capture places the inputs again, and says it when that changes).
    set.placement_notes = place_inputs(set.inputs).notes;
    for (const auto& note : set.placement_notes) spdlog::warn("{}", note);
    set.declare_all();
    if (set.target.name.empty()) set.target.name = "trace";
    return set;
}

}  // namespace apcgate::daemon
