// The message source of the CTF ingester: a libbabeltrace2 trace processing graph that reads
// CTF traces and hands their messages over in timestamp order, a batch at a time. It decodes and
// orders only; what the messages mean to a capture is the mapper's job (event_mapper.hpp).
//
//   source.ctf.fs (one per trace) --port per stream--> merge sink (merge_sink.hpp)
//
// A trace may lie in several directories (the outputs of `lttng snapshot record`, or copies of
// one trace): they are grouped as the babeltrace2 command line groups them (trace_query.hpp)
// and one source.ctf.fs reads each group, so an event two directories hold is read once.
//
// What a source.ctf.fs port yields, per data stream (libbabeltrace2 message types):
//   stream  := STREAM_BEGINNING (packet | DISCARDED_PACKETS)* STREAM_END
//   packet  := PACKET_BEGINNING (EVENT | DISCARDED_EVENTS)* PACKET_END
// decoded from the CTF 1.8 data stream layout (ctf-rfc-v1.1.txt sections 5 and 6), every part
// described by the trace's TSDL metadata (section 7), which libbabeltrace2 parses:
//   packet  := trace.packet.header   (5: magic 0xC1FC1FC1, uuid, stream_id)
//              stream.packet.context (5: timestamp_begin, timestamp_end, content_size,
//                                        packet_size, events_discarded, cpu_id, ...)
//              event* padding up to packet_size bits
//   event   := stream.event.header   (6.1: id, timestamp: compact or extended forms)
//              stream.event.context  (6.2: e.g. LTTng's vpid, vtid, procname, perf_*)
//              event.context         (6.2)
//              event.fields          (6.3: the payload)
// The sink merges the streams of all traces by their clock snapshots (section 8: a clock's
// freq and offset) as babeltrace2's muxer does (stream_merge.hpp), so the batches arrive in
// non-decreasing time.
#pragma once

#include <babeltrace2/babeltrace.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "collectors/ctf/bt_ref.hpp"
#include "collectors/ctf/merge_sink.hpp"
#include "collectors/ctf/scratch_dir.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::ctf {

class TraceGraph {
  public:
    enum class Step { Messages, End, Failed };

    // Builds the graph over the trace directories `traces`. A trace libbabeltrace2 cannot open
    // because of damaged stream files is read from a repaired view of it (stream_repair.hpp;
    // losses() says what of it is not read). A trace it cannot open otherwise (all its
    // directories) is left out and its error added to `rejected`; an error when none can be
    // opened.
    static Result<std::unique_ptr<TraceGraph>> open(
        const std::vector<std::filesystem::path>& traces, MessageHandler& handler,
        std::vector<Error>& rejected);
    ~TraceGraph();
    TraceGraph(const TraceGraph&) = delete;
    TraceGraph& operator=(const TraceGraph&) = delete;

    // Runs the graph until the handler has received one batch (or the end, or a failure).
    Step step();
    // Where the next batches go (the probe hands its graph over to the first capture).
    void set_handler(MessageHandler& handler) {
        handler_ = &handler;
        if (sink_) sink_->set_handler(handler);
    }
    // What went wrong when step() said Failed; the graph is unusable afterwards.
    [[nodiscard]] const Error& failure() const { return failure_; }
    // The directories of the traces that were opened (as given, not their repaired views), how
    // many traces they hold, and the most data streams any one trace has.
    [[nodiscard]] const std::vector<std::filesystem::path>& traces() const { return traces_; }
    // The directory libbabeltrace2 reads for the trace directory `trace`: its repaired view, or
    // itself.
    [[nodiscard]] std::filesystem::path read_dir(const std::filesystem::path& trace) const;
    // A path libbabeltrace2 names (a data stream file's) as the user knows it: below a repaired
    // view, the same file below the directory the view stands for.
    [[nodiscard]] std::string shown_path(std::string_view path) const;
    // One problem per damaged stream file of the repaired traces: the file, where it was cut
    // back to and what was not read.
    [[nodiscard]] const std::vector<Error>& losses() const { return losses_; }
    [[nodiscard]] std::size_t trace_count() const { return trace_count_; }
    [[nodiscard]] std::uint64_t max_streams_per_trace() const { return max_streams_; }
    [[nodiscard]] const bt_plugin* ctf_plugin() const { return ctf_.get(); }

  private:
    explicit TraceGraph(MessageHandler& handler) : handler_(&handler) {}
    // Adds the sources and the sink; on a source's failure, says which one and what
    // libbabeltrace2 logged meanwhile.
    Status build(const std::vector<std::vector<std::filesystem::path>>& traces,
                 std::size_t& failed_index, std::string& log);
    // A view of each directory of `dirs` with its damaged stream files cut back to their whole
    // packets, their losses in `losses`; nullopt when none is damaged (or cannot be repaired).
    std::optional<std::vector<std::filesystem::path>> repair(
        const std::vector<std::filesystem::path>& dirs, std::vector<Error>& losses);

    MessageHandler* handler_;
    // The repaired views and, per view, the directory it stands for. Declared before the graph,
    // so the files outlive the source that reads them.
    ScratchDir scratch_;
    std::vector<std::pair<std::filesystem::path, std::filesystem::path>> views_;
    std::size_t views_made_ = 0;
    std::vector<Error> losses_;
    PluginRef ctf_;
    // Declared before the graph: its component is finalised (and lets go of the upstream
    // iterators) while the graph is destroyed.
    std::unique_ptr<MergeSink> sink_;
    GraphRef graph_;
    std::vector<std::filesystem::path> traces_;
    std::size_t trace_count_ = 0;
    std::uint64_t max_streams_ = 0;
    Error failure_;
    bool failed_ = false;
};

}  // namespace apcgate::collectors::ctf
