#include "collectors/ctf/trace_graph.hpp"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <mutex>
#include <optional>

#include "collectors/ctf/bt_error.hpp"
#include "collectors/ctf/metadata_packets.hpp"
#include "collectors/ctf/stream_repair.hpp"
#include "collectors/ctf/trace_query.hpp"

namespace apcgate::collectors::ctf {

namespace fs = std::filesystem;

namespace {

// Plugin discovery reads shared state inside libbabeltrace2; one thread at a time.
std::mutex& plugin_mutex() {
    static std::mutex m;
    return m;
}

// The metadata parser logs at a level read from the environment when the plugin is loaded (the
// babeltrace2 CLI sets it the same way); it writes nothing unless the metadata is wrong.
void let_parser_log_errors() {
    ::setenv("BABELTRACE_PLUGIN_CTF_METADATA_LOG_LEVEL", "E", 0);
}

Result<PluginRef> find_plugin(const char* name) {
    std::lock_guard lock(plugin_mutex());
    let_parser_log_errors();
    const bt_plugin* plugin = nullptr;
    // BABELTRACE_PLUGIN_PATH first, then the system plugin directory (as the CLI does).
    const auto status =
        bt_plugin_find(name, BT_TRUE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE, &plugin);
    if (status == BT_PLUGIN_FIND_STATUS_OK) return PluginRef(plugin);
    if (status == BT_PLUGIN_FIND_STATUS_NOT_FOUND) {
        bt_current_thread_clear_error();
        return Error::at(ErrorKind::Unsupported,
                         std::string("libbabeltrace2 plugin '") + name +
                             "' not found (is the babeltrace2 package installed?)");
    }
    return take_bt_error(ErrorKind::Unsupported,
                         std::string("cannot load libbabeltrace2 plugin '") + name + "'");
}

Status add_trace_source(bt_graph* graph, const bt_plugin* ctf, const std::vector<fs::path>& dirs,
                        const std::string& name, bt_logging_level level,
                        const bt_component_source** out) {
    ValueRef params = fs_source_params(dirs);
    if (!params)
        return Error::at(ErrorKind::Limit, "out of memory building source.ctf.fs parameters");
    const auto* cls = bt_plugin_borrow_source_component_class_by_name_const(ctf, "fs");
    if (cls == nullptr)
        return Error::at(ErrorKind::Unsupported, "plugin 'ctf' has no source component class 'fs'");
    if (bt_graph_add_source_component(graph, cls, name.c_str(), params.get(), level, out) !=
        BT_GRAPH_ADD_COMPONENT_STATUS_OK)
        return take_bt_error(ErrorKind::Malformed, "libbabeltrace2 cannot open it as a CTF trace");
    return {};
}

// Whether source.ctf.fs accepts the trace directory `dir` (a trial of stream_repair.hpp).
bool source_opens(const bt_plugin* ctf, const fs::path& dir) {
    // libbabeltrace2 2.0 loops forever on some bad metadata packets (metadata_packets.hpp).
    if (!check_metadata_file(dir / "metadata")) return false;
    GraphRef graph(bt_graph_create(0));
    if (!graph) return false;
    const bt_component_source* src = nullptr;
    const bool ok =
        add_trace_source(graph.get(), ctf, {dir}, "trial", BT_LOGGING_LEVEL_NONE, &src).ok();
    bt_current_thread_clear_error();
    return ok;
}

// Adds libbabeltrace2's error log lines to `error`: a metadata parse error is only logged (its
// error cause just says "Cannot create trace"), and the log says which line is wrong.
Error with_log(Error error, const std::string& log) {
    const auto lines = bt_log_errors(log, 3);
    if (lines.empty()) return error;
    error.message += "; libbabeltrace2 log:";
    for (const auto& l : lines) error.message += " " + l + ";";
    error.message.pop_back();
    return error;
}

}  // namespace

Result<std::unique_ptr<TraceGraph>> TraceGraph::open(const std::vector<fs::path>& traces,
                                                     MessageHandler& handler,
                                                     std::vector<Error>& rejected) {
    std::unique_ptr<TraceGraph> g(new TraceGraph(handler));
    auto ctf = find_plugin("ctf");
    if (!ctf) return std::move(ctf).take_error();
    g->ctf_ = std::move(*ctf);

    // A component whose initialisation fails leaves the graph faulty: build it again without
    // that trace. Each pass drops one trace, so this ends.
    std::vector<std::vector<fs::path>> remaining;
    {
        // The query parses each metadata file too: what it logs of a bad one is not for the
        // terminal (build() reports that trace's error).
        StderrCapture capture;
        remaining = group_traces(g->ctf_.get(), traces);
    }
    const std::size_t trace_count = remaining.size();
    // Per trace of `remaining`: whether a repair was tried, and when it was made, the trace's
    // own error (reported should the view fail too) and what the repair lost.
    std::vector<bool> repair_tried(remaining.size(), false);
    std::vector<std::optional<Error>> unrepaired(remaining.size());
    std::vector<std::vector<Error>> losses(remaining.size());
    std::optional<Error> last;
    while (!remaining.empty()) {
        std::size_t failed_index = remaining.size();
        std::string log;
        Status st = g->build(remaining, failed_index, log);
        if (st) {
            for (auto& lost : losses)
                g->losses_.insert(g->losses_.end(), std::make_move_iterator(lost.begin()),
                                  std::make_move_iterator(lost.end()));
            return g;
        }
        if (failed_index >= remaining.size()) return std::move(st).take_error();
        const std::size_t i = failed_index;
        Error e = with_log(std::move(st).take_error(), log);
        if (e.record.empty()) e.record = "CTF trace";  // its metadata or its packet index
        if (e.input.empty()) e.in_input(remaining[i].front().string());
        if (const auto& dirs = remaining[i]; dirs.size() > 1) {
            e.message += " (one trace in " + std::to_string(dirs.size()) + " directories:";
            for (const auto& d : dirs) e.message += " " + d.string();
            e.message += ")";
        }
        if (!repair_tried[i]) {
            repair_tried[i] = true;
            if (auto view = g->repair(remaining[i], losses[i])) {
                remaining[i] = std::move(*view);
                unrepaired[i] = std::move(e);
                continue;
            }
        }
        if (unrepaired[i]) e = std::move(*unrepaired[i]);
        last = e;
        rejected.push_back(std::move(e));
        const auto at = static_cast<std::ptrdiff_t>(i);
        remaining.erase(remaining.begin() + at);
        repair_tried.erase(repair_tried.begin() + at);
        unrepaired.erase(unrepaired.begin() + at);
        losses.erase(losses.begin() + at);
    }
    Error e = last ? *last : Error::at(ErrorKind::Internal, "no CTF trace to read");
    if (trace_count > 1)
        e.message = "none of the " + std::to_string(trace_count) +
                    " traces could be opened; the last: " + e.message;
    return e;
}

TraceGraph::~TraceGraph() = default;

fs::path TraceGraph::read_dir(const fs::path& trace) const {
    for (const auto& [view, original] : views_)
        if (original == trace) return view;
    return trace;
}

std::string TraceGraph::shown_path(std::string_view path) const {
    for (const auto& [view, original] : views_) {
        const std::string& v = view.native();
        if (path.size() > v.size() && path.substr(0, v.size()) == v && path[v.size()] == '/')
            return original.native() + std::string(path.substr(v.size()));
    }
    return std::string(path);
}

std::optional<std::vector<fs::path>> TraceGraph::repair(const std::vector<fs::path>& dirs,
                                                        std::vector<Error>& losses) {
    if (scratch_.empty()) {
        auto made = ScratchDir::make(ScratchDir::default_parent(), "apcgate-ctf-view");
        if (!made) return std::nullopt;
        scratch_ = std::move(*made);
    }
    // What the metadata parser logs in the trials is not for the terminal.
    StderrCapture capture;
    const TraceOpens opens = [this](const fs::path& dir) { return source_opens(ctf_.get(), dir); };
    std::vector<fs::path> read;
    bool repaired = false;
    for (const auto& dir : dirs) {
        const fs::path view = scratch_.path() / ("trace-" + std::to_string(++views_made_));
        auto r = repair_trace(dir, view, opens);
        if (!r) {
            read.push_back(dir);
            continue;
        }
        views_.emplace_back(r->dir, dir);
        read.push_back(r->dir);
        losses.insert(losses.end(), std::make_move_iterator(r->losses.begin()),
                      std::make_move_iterator(r->losses.end()));
        repaired = true;
    }
    if (!repaired) return std::nullopt;
    return read;
}

Status TraceGraph::build(const std::vector<std::vector<fs::path>>& traces,
                         std::size_t& failed_index, std::string& log) {
    graph_.reset();
    sink_ = std::make_unique<MergeSink>(*handler_);
    graph_.reset(bt_graph_create(0));
    traces_.clear();
    trace_count_ = 0;
    max_streams_ = 0;
    if (!graph_) return Error::at(ErrorKind::Internal, "cannot create a libbabeltrace2 graph");
    std::vector<const bt_component_source*> sources;
    {
        // What the metadata parser logs goes to the error message, not to the terminal.
        StderrCapture capture;
        for (std::size_t i = 0; i < traces.size(); ++i) {
            const bt_component_source* src = nullptr;
            for (const auto& dir : traces[i]) {
                if (Status ok = check_metadata_file(dir / "metadata"); !ok) {
                    failed_index = i;
                    return ok;
                }
            }
            Status st = add_trace_source(graph_.get(), ctf_.get(), traces[i],
                                         "trace-" + std::to_string(i), BT_LOGGING_LEVEL_NONE, &src);
            if (!st) {
                failed_index = i;
                log = capture.text();
                return st;
            }
            sources.push_back(src);
        }
    }
    // Every trace's data streams, one output port each, in port order.
    std::vector<const bt_port_output*> streams;
    for (const auto* src : sources) {
        const std::uint64_t n = bt_component_source_get_output_port_count(src);
        max_streams_ = std::max(max_streams_, n);
        for (std::uint64_t p = 0; p < n; ++p)
            streams.push_back(bt_component_source_borrow_output_port_by_index_const(src, p));
    }
    auto sink = sink_->add_to(graph_.get(), streams.size());
    if (!sink) return std::move(sink).take_error();
    for (std::uint64_t in = 0; in < streams.size(); ++in) {
        if (bt_graph_connect_ports(graph_.get(), streams[in],
                                   bt_component_sink_borrow_input_port_by_index_const(*sink, in),
                                   nullptr) != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
            return take_bt_error(ErrorKind::Internal, "cannot connect a trace stream to the sink");
    }
    for (const auto& dirs : traces) {
        for (const auto& dir : dirs) {
            const auto view = std::find_if(views_.begin(), views_.end(),
                                           [&](const auto& v) { return v.first == dir; });
            traces_.push_back(view != views_.end() ? view->second : dir);
        }
    }
    trace_count_ = traces.size();
    return {};
}

TraceGraph::Step TraceGraph::step() {
    if (failed_) return Step::Failed;
    if (!graph_) return Step::End;
    switch (bt_graph_run_once(graph_.get())) {
        case BT_GRAPH_RUN_ONCE_STATUS_OK:
        case BT_GRAPH_RUN_ONCE_STATUS_AGAIN:
            return Step::Messages;
        case BT_GRAPH_RUN_ONCE_STATUS_END:
            return Step::End;
        default:
            failed_ = true;
            if (const auto& refused = sink_->failure()) {
                // The merge refused the streams: its words, not the graph's.
                bt_current_thread_clear_error();
                failure_ = *refused;
            } else {
                failure_ = take_bt_error(ErrorKind::Malformed,
                                         "libbabeltrace2 stopped decoding the trace");
            }
            return Step::Failed;
    }
}

}  // namespace apcgate::collectors::ctf
