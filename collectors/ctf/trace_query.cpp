#include "collectors/ctf/trace_query.hpp"

#include <algorithm>

#include "collectors/ctf/bt_ref.hpp"

namespace apcgate::collectors::ctf {

namespace {

std::optional<std::int64_t> int_entry(const bt_value* map, const char* key) {
    if (map == nullptr || !bt_value_is_map(map)) return std::nullopt;
    const bt_value* v = bt_value_map_borrow_entry_value_const(map, key);
    if (v == nullptr || !bt_value_is_signed_integer(v)) return std::nullopt;
    return bt_value_integer_signed_get(v);
}

const bt_value* array_entry(const bt_value* map, const char* key) {
    if (map == nullptr || !bt_value_is_map(map)) return nullptr;
    const bt_value* v = bt_value_map_borrow_entry_value_const(map, key);
    return v != nullptr && bt_value_is_array(v) ? v : nullptr;
}

}  // namespace

ValueRef fs_source_params(const std::filesystem::path& dir) {
    ValueRef params(bt_value_map_create());
    bt_value* inputs = nullptr;
    if (!params ||
        bt_value_map_insert_empty_array_entry(params.get(), "inputs", &inputs) !=
            BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK ||
        bt_value_array_append_string_element(inputs, dir.c_str()) !=
            BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK)
        return ValueRef();
    return params;
}

std::optional<TimeRange> query_time_range(const bt_plugin* ctf, const std::filesystem::path& dir) {
    const auto* cls = bt_plugin_borrow_source_component_class_by_name_const(ctf, "fs");
    if (cls == nullptr) return std::nullopt;
    ValueRef params = fs_source_params(dir);
    if (!params) return std::nullopt;
    QueryExecutorRef query(
        bt_query_executor_create(bt_component_class_source_as_component_class_const(cls),
                                 "babeltrace.trace-infos", params.get()));
    if (!query) return std::nullopt;
    bt_query_executor_set_logging_level(query.get(), BT_LOGGING_LEVEL_NONE);
    const bt_value* raw = nullptr;
    if (bt_query_executor_query(query.get(), &raw) != BT_QUERY_EXECUTOR_QUERY_STATUS_OK) {
        bt_current_thread_clear_error();
        return std::nullopt;
    }
    ConstValueRef result(raw);
    if (!bt_value_is_array(raw)) return std::nullopt;
    std::optional<TimeRange> range;
    for (std::uint64_t t = 0; t < bt_value_array_get_length(raw); ++t) {
        const bt_value* streams =
            array_entry(bt_value_array_borrow_element_by_index_const(raw, t), "stream-infos");
        if (streams == nullptr) continue;
        for (std::uint64_t s = 0; s < bt_value_array_get_length(streams); ++s) {
            const bt_value* info = bt_value_array_borrow_element_by_index_const(streams, s);
            const bt_value* ns = bt_value_is_map(info)
                                     ? bt_value_map_borrow_entry_value_const(info, "range-ns")
                                     : nullptr;
            const auto begin = int_entry(ns, "begin");
            const auto end = int_entry(ns, "end");
            if (!begin || !end) continue;
            if (!range) range = TimeRange{*begin, *end};
            range->begin = std::min(range->begin, *begin);
            range->end = std::max(range->end, *end);
        }
    }
    return range;
}

}  // namespace apcgate::collectors::ctf
