// `apcgate diff A.apc B.apc [--fail-if RULE]...`: the reports of two captures side by side.
// Exit 0, or 5 when a --fail-if rule trips (for CI); 2 for a malformed rule; 1 when a capture
// cannot be read; 3 when one's data is corrupt (nothing is compared then: a half-read capture
// would show changes that are not there).
#include <iostream>
#include <ostream>

#include "daemon/analysis/capture_analysis.hpp"
#include "daemon/analysis/fail_rule.hpp"
#include "daemon/analysis/report_diff.hpp"
#include "daemon/cli/cli.hpp"
#include "daemon/cli/cli_analysis.hpp"
#include "daemon/cli/common_options.hpp"
#include "daemon/cli/subcommand.hpp"
#include "daemon/service/exit_codes.hpp"

namespace apcgate::daemon {

int run_diff(const DiffOptions& options, std::ostream& out, std::ostream& err) {
    std::vector<analysis::FailRule> rules;
    for (const auto& text : options.fail_if) {
        auto rule = analysis::parse_fail_rule(text);
        if (!rule) {
            err << "apcgate diff: " << rule.error().to_string() << "\n";
            return kExitUsage;
        }
        rules.push_back(std::move(rule).value());
    }
    const auto analysis_opts = analysis_options(options.symbols, options.pid);
    std::vector<analysis::ReportMetrics> metrics;
    for (const auto& capture : {options.before, options.after}) {
        auto analysed = analysis::analyse_capture(capture, analysis_opts);
        if (!analysed) {
            err << "apcgate diff: " << analysed.error().to_string() << "\n";
            return kExitFailure;
        }
        if (analysed->data_error) {
            err << "apcgate diff: the data of " << capture.string()
                << " is corrupt: " << analysed->data_error->to_string() << "\n";
            return kExitInvalidInput;
        }
        metrics.push_back(analysis::metrics_of(analysed->report));
    }
    std::vector<analysis::RuleVerdict> verdicts;
    bool failed = false;
    for (const auto& rule : rules) {
        verdicts.push_back(analysis::evaluate(rule, metrics[0], metrics[1]));
        failed = failed || !verdicts.back().tripped_rows.empty();
        if (!verdicts.back().matched_any)
            err << "apcgate diff: rule '" << rule.text << "' matches no row in either capture\n";
    }
    const auto diff = analysis::diff_reports(metrics[0], metrics[1]);
    if (options.json) {
        out << analysis::diff_json(diff, verdicts, options.top.value_or(0))
                   // Names come from the capture: invalid UTF-8 is replaced, not a reason to abort.
                   .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
            << "\n";
    } else if (options.csv) {
        analysis::write_diff_csv(diff, options.top.value_or(0), out);
    } else {
        analysis::write_diff_text(diff, verdicts, options.top.value_or(20), out);
    }
    for (const auto& v : verdicts) {
        if (v.tripped_rows.empty()) continue;
        err << "apcgate diff: rule '" << v.rule->text << "' failed for";
        for (const auto& r : v.tripped_rows) err << " " << r;
        err << "\n";
    }
    return failed ? kExitRuleFailed : kExitOk;
}

Subcommand add_diff_command(CLI::App& parent) {
    auto options = std::make_shared<DiffOptions>();
    auto* diff_cmd = parent.add_subcommand(
        "diff", "Compare the reports of two captures; --fail-if RULE exits 5 when it trips (CI)");
    diff_cmd->add_option("a", options->before, "The first (baseline) .apc directory")->required();
    diff_cmd->add_option("b", options->after, "The second .apc directory")->required();
    add_image_symbol_options(diff_cmd, options->symbols);
    diff_cmd->add_option("--pid", options->pid,
                         "Functions of this process only (in both captures)");
    diff_cmd
        ->add_option("--top", options->top,
                     "Rows per table (text: 20 by default; JSON and CSV: all by default)")
        ->check(CLI::PositiveNumber);
    auto* diff_json = diff_cmd->add_flag("--json", options->json, "Print the comparison as JSON");
    auto* diff_csv = diff_cmd->add_flag("--csv", options->csv, "Print the comparison as CSV");
    diff_json->excludes(diff_csv);
    diff_cmd
        ->add_option("--fail-if", options->fail_if,
                     "Exit 5 when this rule holds: SECTION[NAME].FIELD OP VALUE, e.g. "
                     "'spans[main].total_ns > +10%' (repeatable; see apcgate-diff(1))")
        ->allow_extra_args(false);

    return {diff_cmd, [options] { return run_diff(*options, std::cout, std::cerr); }};
}

}  // namespace apcgate::daemon
