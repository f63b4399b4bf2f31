#include "collectors/ctf/merge_sink.hpp"

#include <array>
#include <string>

#include "collectors/ctf/bt_error.hpp"
#include "collectors/ctf/bt_ref.hpp"

namespace apcgate::collectors::ctf {

namespace {

MergeSink* self_of(bt_self_component_sink* self) {
    return static_cast<MergeSink*>(
        bt_self_component_get_data(bt_self_component_sink_as_self_component(self)));
}

}  // namespace

Result<const bt_component_sink*> MergeSink::add_to(bt_graph* graph, std::uint64_t ports) {
    ports_ = ports;
    SinkClassRef cls(bt_component_class_sink_create("apcgate-merge", &MergeSink::consume));
    if (!cls) return Error::at(ErrorKind::Limit, "out of memory creating the sink class");
    if (bt_component_class_sink_set_initialize_method(cls.get(), &MergeSink::initialize) !=
            BT_COMPONENT_CLASS_SET_METHOD_STATUS_OK ||
        bt_component_class_sink_set_graph_is_configured_method(cls.get(),
                                                               &MergeSink::graph_is_configured) !=
            BT_COMPONENT_CLASS_SET_METHOD_STATUS_OK ||
        bt_component_class_sink_set_finalize_method(cls.get(), &MergeSink::finalize) !=
            BT_COMPONENT_CLASS_SET_METHOD_STATUS_OK)
        return take_bt_error(ErrorKind::Internal, "cannot set up the sink class");
    const bt_component_sink* sink = nullptr;
    if (bt_graph_add_sink_component_with_initialize_method_data(
            graph, cls.get(), "apcgate", nullptr, this, BT_LOGGING_LEVEL_NONE, &sink) !=
        BT_GRAPH_ADD_COMPONENT_STATUS_OK)
        return take_bt_error(ErrorKind::Internal, "cannot add the sink");
    return sink;
}

bt_component_class_initialize_method_status MergeSink::initialize(
    bt_self_component_sink* self, bt_self_component_sink_configuration* /*config*/,
    const bt_value* /*params*/, void* data) {
    auto* sink = static_cast<MergeSink*>(data);
    bt_self_component_set_data(bt_self_component_sink_as_self_component(self), sink);
    for (std::uint64_t i = 0; i < sink->ports_; ++i) {
        const std::string name = "in" + std::to_string(i);
        if (bt_self_component_sink_add_input_port(self, name.c_str(), nullptr, nullptr) !=
            BT_SELF_COMPONENT_ADD_PORT_STATUS_OK)
            return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
    }
    return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

bt_component_class_sink_graph_is_configured_method_status MergeSink::graph_is_configured(
    bt_self_component_sink* self) {
    MergeSink* sink = self_of(self);
    const std::uint64_t ports =
        bt_component_sink_get_input_port_count(bt_self_component_sink_as_component_sink(self));
    for (std::uint64_t i = 0; i < ports; ++i) {
        bt_self_component_port_input* port =
            bt_self_component_sink_borrow_input_port_by_index(self, i);
        if (bt_port_is_connected(bt_self_component_port_as_port(
                bt_self_component_port_input_as_self_component_port(port))) == BT_FALSE)
            continue;
        bt_message_iterator* it = nullptr;
        if (bt_message_iterator_create_from_sink_component(self, port, &it) !=
            BT_MESSAGE_ITERATOR_CREATE_FROM_SINK_COMPONENT_STATUS_OK)
            return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_ERROR;
        sink->merge_.add_upstream(it);
    }
    return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_OK;
}

bt_component_class_sink_consume_method_status MergeSink::consume(bt_self_component_sink* self) {
    MergeSink* sink = self_of(self);
    std::array<const bt_message*, kBatch> batch{};
    std::uint64_t count = 0;
    switch (sink->merge_.next(batch.data(), batch.size(), count)) {
        case StreamMerge::Pull::Messages:
            break;
        case StreamMerge::Pull::Again:
            return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_AGAIN;
        case StreamMerge::Pull::End:
            return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_END;
        case StreamMerge::Pull::Failed:
            // An upstream's error is on this thread for TraceGraph::step(); the merge's own is
            // failure().
            return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
    }
    sink->handler_->on_messages(batch.data(), count);
    for (std::uint64_t i = 0; i < count; ++i) bt_message_put_ref(batch[i]);
    return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK;
}

void MergeSink::finalize(bt_self_component_sink* self) {
    self_of(self)->merge_.clear();
}

}  // namespace apcgate::collectors::ctf
