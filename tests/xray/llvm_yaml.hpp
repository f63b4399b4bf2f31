// Reads `llvm-xray convert -output-format=yaml` output (one flow mapping per record line, e.g.
// "  - { type: 0, func-id: 3, function: 'foo()', args: [ 67 ], cpu: 6, thread: 2631,
// process: 2631, kind: function-enter-arg, tsc: 2034042117104344, data: '' }") into records
// grouped by thread, the shape the tests compare the ingester's reader with.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace apcgate::xray_test {

struct Rec {
    std::string kind;  // llvm-xray's names: function-enter, function-exit, custom-event, ...
    std::uint32_t function = 0;  // func-id; typed events: the event type
    std::string name;            // llvm-xray's `function` (symbolized) when known
    std::uint64_t tsc = 0;
    std::uint32_t cpu = 0;
    std::vector<std::uint64_t> args;
    std::string data;

    bool operator==(const Rec& o) const {
        return kind == o.kind && function == o.function && tsc == o.tsc && cpu == o.cpu &&
               args == o.args && data == o.data;
    }
};

using ThreadKey = std::pair<std::int64_t, std::int64_t>;  // (pid or -1, tid)
using PerThread = std::map<ThreadKey, std::vector<Rec>>;

struct LlvmTrace {
    std::uint16_t version = 0;
    std::uint16_t type = 0;
    std::uint64_t cycle_frequency = 0;
    PerThread threads;
    std::size_t records = 0;
};

// Parses the YAML text; nullopt with `error` set when a line is not understood.
std::optional<LlvmTrace> parse_llvm_yaml(const std::string& text, std::string* error);

// Stable-sorts each thread's records by TSC: llvm-xray's per-thread block order is not strict.
void sort_by_tsc(PerThread& threads);

std::string to_string(const Rec& r);

}  // namespace apcgate::xray_test
