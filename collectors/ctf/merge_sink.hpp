// The sink of the CTF graph (trace_graph.hpp): a component with one input port per data stream
// (each source.ctf.fs output port), reading each through a message iterator of its own and
// merging them in time order (stream_merge.hpp), handing the merged messages to a
// MessageHandler a batch at a time.
#pragma once

#include <babeltrace2/babeltrace.h>

#include <cstdint>
#include <optional>

#include "collectors/ctf/stream_merge.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::ctf {

// Receives each batch of messages; the messages are borrowed for the duration of the call.
class MessageHandler {
  public:
    virtual ~MessageHandler() = default;
    virtual void on_messages(const bt_message* const* messages, std::uint64_t count) = 0;
};

class MergeSink {
  public:
    // Messages handed on per batch: what libbabeltrace2's own iterators hand on (its
    // MSG_BATCH_SIZE), so a step of the graph is the muxer's step.
    static constexpr std::uint64_t kBatch = 15;

    explicit MergeSink(MessageHandler& handler) : handler_(&handler) {}
    MergeSink(const MergeSink&) = delete;
    MergeSink& operator=(const MergeSink&) = delete;

    // Adds the sink to `graph` with `ports` input ports, named "apcgate". It must outlive the
    // graph.
    Result<const bt_component_sink*> add_to(bt_graph* graph, std::uint64_t ports);
    void set_handler(MessageHandler& handler) { handler_ = &handler; }
    // Why the merge stopped, when it refused the streams (not libbabeltrace2's error).
    [[nodiscard]] const std::optional<Error>& failure() const { return merge_.failure(); }

  private:
    static bt_component_class_initialize_method_status initialize(
        bt_self_component_sink* self, bt_self_component_sink_configuration* config,
        const bt_value* params, void* data);
    static bt_component_class_sink_graph_is_configured_method_status graph_is_configured(
        bt_self_component_sink* self);
    static bt_component_class_sink_consume_method_status consume(bt_self_component_sink* self);
    static void finalize(bt_self_component_sink* self);

    MessageHandler* handler_;
    StreamMerge merge_;
    std::uint64_t ports_ = 0;
};

}  // namespace apcgate::collectors::ctf
