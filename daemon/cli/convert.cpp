// `apcgate convert IN... -o out.apc`: trace files into one capture. Every input's format is
// detected (or forced), all inputs are merged onto one timeline by the capture engine, and the
// capture is written as an .apc directory. Inputs that end in a problem keep everything decoded
// before it, and bad records are skipped: the capture is still written, and the exit code says
// the input was damaged (any problem, not only one that stopped reading). So does SIGINT or
// SIGTERM (a user who has seen enough of a large input): reading stops, what is open is closed,
// the capture is written, and the exit code is 128 + the signal.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <ctime>
#include <iostream>
#include <ostream>

#include "daemon/capture/apc_directory.hpp"
#include "daemon/capture/capture_documents.hpp"
#include "daemon/capture/convert_report.hpp"
#include "daemon/capture/ingest_registry.hpp"
#include "daemon/capture/statistics_file.hpp"
#include "daemon/capture/statistics_output.hpp"
#include "daemon/cli/cli.hpp"
#include "daemon/cli/common_options.hpp"
#include "daemon/cli/interrupt_flag.hpp"
#include "daemon/cli/progress_bar.hpp"
#include "daemon/cli/subcommand.hpp"
#include "daemon/service/exit_codes.hpp"
#include "daemon/service/logging.hpp"
#include "xml/documents.hpp"

namespace apcgate::daemon {

namespace {

namespace ingest = collectors::ingest;

// Every counter the inputs declared: a conversion keeps all the data it read.
model::Configuration everything(const model::CounterCatalog& catalog) {
    model::Configuration cfg;
    for (const auto& c : catalog.counters()) cfg.counters.push_back({c.counter, c.event, {}, {}});
    return cfg;
}

// The capture's plan and documents: every counter the inputs declared, on the timeline their
// placement gave.
CapturePlan plan_for(const CollectorSet& set, const ingest::TimelinePlacement& placed,
                     CaptureDocuments& documents) {
    model::CaptureSettings settings;
    settings.session_xml = xml::write_session(settings);  // the plan carries it too
    CapturePlan plan;
    plan.settings = settings;
    plan.counters = model::CaptureCounters::assign(set.catalog, everything(set.catalog));
    for (const auto& s : set.sources) plan.sources.push_back(s.get());
    plan.zero_monotonic_ns = placed.zero;
    plan.source_zero_ns = placed.input_zero;
    plan.summary.monotonic_delta_ns = plan.zero_monotonic_ns;
    plan.summary.attributes.emplace_back("agent", "apcgate " APCGATE_VERSION " convert");
    documents =
        capture_documents(set, settings, plan.counters, Framing::Gator, CaptureOrigin::Convert);
    return plan;
}

std::uint64_t bytes_read(const std::vector<ingest::IngestSource*>& inputs) {
    std::uint64_t done = 0;
    for (const auto* in : inputs) done += in->report().bytes_done;
    return done;
}

// Reads and encodes until every input is read, the sink fails or a signal arrives; the signal
// that interrupted reading (0 when none did).
int convert_all(CaptureEngine& engine, const std::vector<ingest::IngestSource*>& inputs,
                std::uint64_t total_bytes, const InterruptFlag& interrupt, ApcDirectory& sink) {
    ProgressBar bar("converting", total_bytes);
    while (engine.recorded_running() && interrupt.signal() == 0) {
        engine.poll_behind(0);
        engine.encode_ready();
        bar.update(bytes_read(inputs));
        if (!sink.status()) break;
    }
    // A signal that came once everything was read interrupted nothing.
    const int sig = engine.recorded_running() ? interrupt.signal() : 0;
    engine.finish(0);
    bar.finish();
    return sig;
}

// What the conversion did, for the report at its end.
struct ConvertOutcome {
    const std::vector<ingest::IngestSource*>& inputs;
    const ingest::TimelinePlacement& placed;
    CaptureTotals totals;
    std::vector<StatisticsOf> statistics;  // what the encoder (and any counting source) counted
    double seconds = 0;
    std::uint64_t total_bytes = 0;
    int signal = 0;  // the one that interrupted reading, or 0
};

// Reports on standard output (--json) or standard error, and returns the exit code. Exit 0
// only for inputs read to their end with nothing wrong in them: a bad record (a field read
// wrong, a record skipped) is as much a damaged input as a cut one, though reading went on past
// it. Notes say nothing is wrong, so they do not count.
int report_outcome(const ConvertOptions& o, const ConvertOutcome& c, std::ostream& out,
                   std::ostream& err) {
    bool complete = true;
    bool clean = true;
    std::uint64_t problems = 0;
    for (const auto* in : c.inputs) {
        complete = complete && in->report().complete();
        clean = clean && in->report().clean();
        problems += in->report().problem_count();
    }
    const char* signal_name = c.signal == SIGINT ? "SIGINT" : "SIGTERM";
    if (o.json) {
        nlohmann::json j;
        j["output"] = o.output.string();
        j["complete"] = complete && c.signal == 0;
        j["problem_count"] = problems;
        if (c.signal != 0) j["interrupted"] = signal_name;
        j["inputs"] = nlohmann::json::array();
        for (std::size_t i = 0; i < c.inputs.size(); ++i) {
            nlohmann::json r = report_json(c.inputs[i]->report());
            r["clock"] = c.inputs[i]->clock().description;
            r["placed_by"] = c.placed.how[i];
            j["inputs"].push_back(std::move(r));
        }
        j["timeline"] = {{"clock", c.placed.monotonic ? "CLOCK_MONOTONIC" : "the first input's"},
                         {"notes", c.placed.notes}};
        j["capture"] = {
            {"events", c.totals.events}, {"frames", c.totals.frames}, {"bytes", c.totals.bytes}};
        j["statistics"] = nlohmann::json::object();
        for (const auto& s : c.statistics) j["statistics"][s.who] = statistics_json(s.values);
        j["seconds"] = c.seconds;
        j["input_mb_per_s"] =
            c.seconds > 0 ? static_cast<double>(c.total_bytes) / 1e6 / c.seconds : 0.0;
        out << j.dump(2) << "\n";
    } else {
        for (const auto* in : c.inputs) err << report_text(in->report());
        if (c.signal != 0)
            err << "interrupted (" << signal_name
                << "): the capture holds the inputs as far as they were read\n";
        err << "wrote " << o.output.string() << ": " << c.totals.events << " events, "
            << c.totals.frames << " frames, " << c.totals.bytes << " bytes in " << c.seconds
            << " s\n";
        for (const auto& s : c.statistics) err << statistics_text(s.values);
    }
    if (c.signal != 0) return kExitSignalBase + c.signal;
    return clean ? kExitOk : kExitInvalidInput;
}

}  // namespace

int run_convert(const ConvertOptions& o, std::ostream& out, std::ostream& err) {
    const auto started = std::chrono::steady_clock::now();
    // From the start: once the capture directory exists, a signal stops the conversion cleanly.
    const InterruptFlag interrupt;
    auto opened = open_trace_inputs(o.inputs, o.format, o.binaries, o.debug_dirs, "converted");
    if (!opened) {
        err << "apcgate convert: " << opened.error().to_string() << "\n";
        return kExitInvalidInput;
    }
    CollectorSet& set = *opened;
    std::uint64_t total_bytes = 0;
    for (const auto* in : set.inputs) total_bytes += in->report().bytes_total;
    const ingest::TimelinePlacement placed = place_inputs(set.inputs);
    if (!o.json)
        for (const auto& note : placed.notes) err << "apcgate convert: warning: " << note << "\n";

    auto dir = ApcDirectory::create(o.output, o.force, Durability::Cached);
    if (!dir) {
        err << "apcgate convert: " << dir.error().to_string() << "\n";
        return dir.error().is(ErrorKind::Refused) ? kExitOutputExists : kExitFailure;
    }
    ApcDirectory& sink = **dir;
    CaptureDocuments documents;
    CapturePlan plan = plan_for(set, placed, documents);
    if (Status st = sink.write_documents(documents); !st) {
        err << "apcgate convert: " << st.error().to_string() << "\n";
        return kExitFailure;
    }
    CaptureEngine engine(std::move(plan), sink);
    if (Status st = engine.start(); !st) {
        err << "apcgate convert: " << st.error().to_string() << "\n";
        return kExitInvalidInput;
    }
    const int sig = convert_all(engine, set.inputs, total_bytes, interrupt, sink);
    if (!sink.status()) {
        err << "apcgate convert: " << sink.status().error().to_string() << "\n";
        return kExitFailure;
    }
    // Each input's statistics and the encoder's stay with the capture, for `apcgate inspect`.
    std::vector<StatisticsOf> parts;
    for (const auto* in : set.inputs)
        parts.push_back({"source " + in->report().input(), in->report().statistic_values()});
    for (StatisticsOf& s : engine.statistics()) parts.push_back(std::move(s));
    if (Status st = sink.write_document(kStatisticsFile, statistics_document(parts)); !st) {
        err << "apcgate convert: " << st.error().to_string() << "\n";
        return kExitFailure;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return report_outcome(
        o, {set.inputs, placed, engine.totals(), engine.statistics(), seconds, total_bytes, sig},
        out, err);
}

Subcommand add_convert_command(CLI::App& parent) {
    auto options = std::make_shared<ConvertOptions>();
    auto* convert_cmd = parent.add_subcommand(
        "convert",
        "Convert trace files (Barman buffers, LLVM XRay logs, Fuchsia FXT archives, CTF traces) "
        "into one capture on one timeline");
    convert_cmd
        ->add_option("inputs", options->inputs,
                     "Input traces: PATH (format detected from its magic bytes) or FMT:PATH")
        ->required();
    convert_cmd->add_option("-o,--output", options->output, "Capture directory to create")
        ->required();
    // The registered formats, so a new one needs no edit here.
    std::vector<std::string> format_names;
    for (const auto& f : ingest_formats()) format_names.push_back(f.name);
    convert_cmd->add_option("--format", options->format, "Force the format of every input")
        ->check(CLI::IsMember(format_names));
    add_xray_symbol_options(convert_cmd, options->binaries, options->debug_dirs);
    convert_cmd->add_flag("--json", options->json,
                          "Print what was read, mapped and skipped per record kind as JSON");
    convert_cmd->add_flag("-f,--force", options->force,
                          "Overwrite the capture files of an existing directory");
    convert_cmd->add_option("--log-level", options->log_level, "trace..off")->capture_default_str();

    return {convert_cmd, [options] {
                setup_logging(options->log_level);
                return run_convert(*options, std::cout, std::cerr);
            }};
}

}  // namespace apcgate::daemon
