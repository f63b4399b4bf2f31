// `apcgate report RUN.apc`: what a capture shows (threads and processes, hottest functions,
// call stacks, spans, markers, counters, losses) as text tables, --json, --csv or --folded.
// Exit 0 when the capture was read (a final frame cut short is a loss, not a failure), 3 when
// its data is corrupt (what came before is still reported), 1 when it cannot be read at all.
#include <iostream>
#include <ostream>

#include "daemon/analysis/capture_analysis.hpp"
#include "daemon/analysis/report_output.hpp"
#include "daemon/cli/cli.hpp"
#include "daemon/cli/cli_analysis.hpp"
#include "daemon/cli/common_options.hpp"
#include "daemon/cli/subcommand.hpp"
#include "daemon/service/exit_codes.hpp"

namespace apcgate::daemon {

analysis::AnalysisOptions analysis_options(const SymbolArgs& symbols,
                                           std::optional<std::int32_t> pid) {
    analysis::AnalysisOptions o;
    o.symbols.binary_dirs = symbols.binary_dirs;
    o.symbols.sysroot = symbols.sysroot;
    o.symbols.debug_dirs = symbols.debug_dirs;
    o.pid = pid;
    return o;
}

int run_report(const ReportOptions& options, std::ostream& out, std::ostream& err) {
    auto analysed =
        analysis::analyse_capture(options.capture, analysis_options(options.symbols, options.pid));
    if (!analysed) {
        err << "apcgate report: " << analysed.error().to_string() << "\n";
        return kExitFailure;
    }
    const analysis::Report& r = analysed->report;
    if (options.folded) {
        analysis::write_folded(r, out);
    } else if (options.json) {
        out << analysis::report_json(r, options.top.value_or(0))
                   // Names come from the capture: invalid UTF-8 is replaced, not a reason to abort.
                   .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
            << "\n";
    } else if (options.csv) {
        analysis::write_csv(r, options.top.value_or(0), out);
    } else {
        analysis::write_text(r, options.top.value_or(20), out);
    }
    if (analysed->data_error) {
        err << "apcgate report: the capture's data is corrupt; the report covers what came "
               "before: "
            << analysed->data_error->to_string() << "\n";
        return kExitInvalidInput;
    }
    return kExitOk;
}

Subcommand add_report_command(CLI::App& parent) {
    auto options = std::make_shared<ReportOptions>();
    auto* report_cmd = parent.add_subcommand(
        "report", "Summarise what a capture shows: CPU time, hottest functions, spans, counters");
    report_cmd->add_option("capture", options->capture, "The .apc directory")->required();
    add_image_symbol_options(report_cmd, options->symbols);
    report_cmd->add_option("--pid", options->pid,
                           "Functions and stacks of this process only (default: every process)");
    report_cmd
        ->add_option("--top", options->top,
                     "Rows per table (text: 20 by default; JSON and CSV: all by default)")
        ->check(CLI::PositiveNumber);
    auto* report_json = report_cmd->add_flag("--json", options->json, "Print the report as JSON");
    auto* report_csv =
        report_cmd->add_flag("--csv", options->csv, "Print the report as CSV, one block per table");
    auto* report_folded = report_cmd->add_flag(
        "--folded", options->folded,
        "Print the CPU samples' call stacks folded (outer;inner COUNT), for flame graphs");
    report_json->excludes(report_csv)->excludes(report_folded);
    report_csv->excludes(report_folded);

    return {report_cmd, [options] { return run_report(*options, std::cout, std::cerr); }};
}

}  // namespace apcgate::daemon
