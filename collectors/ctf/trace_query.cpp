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

// The answer of source.ctf.fs's query `object` with `params`; empty when it fails (its error
// is cleared: nothing here needs it).
ConstValueRef query(const bt_plugin* ctf, const char* object, const bt_value* params) {
    const auto* cls = bt_plugin_borrow_source_component_class_by_name_const(ctf, "fs");
    if (cls == nullptr) return ConstValueRef();
    QueryExecutorRef executor(bt_query_executor_create(
        bt_component_class_source_as_component_class_const(cls), object, params));
    if (!executor) return ConstValueRef();
    bt_query_executor_set_logging_level(executor.get(), BT_LOGGING_LEVEL_NONE);
    const bt_value* raw = nullptr;
    if (bt_query_executor_query(executor.get(), &raw) != BT_QUERY_EXECUTOR_QUERY_STATUS_OK) {
        bt_current_thread_clear_error();
        return ConstValueRef();
    }
    return ConstValueRef(raw);
}

// The support-info group of `dir`, empty when it has none.
std::string support_group(const bt_plugin* ctf, const std::filesystem::path& dir) {
    ValueRef params(bt_value_map_create());
    if (!params ||
        bt_value_map_insert_string_entry(params.get(), "input", dir.c_str()) !=
            BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK ||
        bt_value_map_insert_string_entry(params.get(), "type", "directory") !=
            BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK)
        return {};
    const ConstValueRef info = query(ctf, "babeltrace.support-info", params.get());
    if (!info || !bt_value_is_map(info.get())) return {};
    const bt_value* group = bt_value_map_borrow_entry_value_const(info.get(), "group");
    if (group == nullptr || !bt_value_is_string(group)) return {};
    return bt_value_string_get(group);
}

}  // namespace

ValueRef fs_source_params(const std::vector<std::filesystem::path>& dirs) {
    ValueRef params(bt_value_map_create());
    bt_value* inputs = nullptr;
    if (!params || bt_value_map_insert_empty_array_entry(params.get(), "inputs", &inputs) !=
                       BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK)
        return ValueRef();
    for (const auto& dir : dirs)
        if (bt_value_array_append_string_element(inputs, dir.c_str()) !=
            BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK)
            return ValueRef();
    return params;
}

std::vector<std::vector<std::filesystem::path>> group_traces(
    const bt_plugin* ctf, const std::vector<std::filesystem::path>& dirs) {
    std::vector<std::vector<std::filesystem::path>> groups;
    std::vector<std::string> keys;  // of each group, "" for a directory alone
    for (const auto& dir : dirs) {
        const std::string key = support_group(ctf, dir);
        const auto it = key.empty() ? keys.end() : std::find(keys.begin(), keys.end(), key);
        if (it != keys.end()) {
            groups[static_cast<std::size_t>(it - keys.begin())].push_back(dir);
            continue;
        }
        keys.push_back(key);
        groups.push_back({dir});
    }
    return groups;
}

std::optional<TimeRange> query_time_range(const bt_plugin* ctf, const std::filesystem::path& dir) {
    ValueRef params = fs_source_params({dir});
    if (!params) return std::nullopt;
    const ConstValueRef result = query(ctf, "babeltrace.trace-infos", params.get());
    const bt_value* raw = result.get();
    if (raw == nullptr || !bt_value_is_array(raw)) return std::nullopt;
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
