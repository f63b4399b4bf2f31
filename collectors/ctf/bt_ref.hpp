// Owning handles for libbabeltrace2 objects: a reference is put (or an error released) when the
// handle goes out of scope, so no early return leaks a graph, a plugin or a parameter map.
#pragma once

#include <babeltrace2/babeltrace.h>

#include <memory>

namespace apcgate::collectors::ctf {

template <typename T, void (*Put)(const T*)>
struct BtPut {
    void operator()(const T* p) const { Put(p); }
};

template <typename T, void (*Put)(const T*)>
using BtRef = std::unique_ptr<T, BtPut<T, Put>>;

using GraphRef = BtRef<bt_graph, bt_graph_put_ref>;
using PluginRef = BtRef<const bt_plugin, bt_plugin_put_ref>;
using ValueRef = BtRef<bt_value, bt_value_put_ref>;
using ConstValueRef = BtRef<const bt_value, bt_value_put_ref>;
using QueryExecutorRef = BtRef<bt_query_executor, bt_query_executor_put_ref>;
using MessageIteratorRef = BtRef<bt_message_iterator, bt_message_iterator_put_ref>;
using SinkClassRef = BtRef<bt_component_class_sink, bt_component_class_sink_put_ref>;
using ErrorRef = BtRef<const bt_error, bt_error_release>;

}  // namespace apcgate::collectors::ctf
