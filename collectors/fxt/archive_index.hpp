// What a first pass over an archive learns, so that the second pass can stream it in time order
// with bounded memory and the capture can be declared before it starts:
//  - the byte order, and each provider's sections (the byte ranges between provider metadata
//    records that belong to it): the second pass reads each provider as its own stream, since a
//    trace manager concatenates whole provider buffers and each starts at the trace's beginning;
//  - per provider the earliest timestamp and the lag, the furthest a record's timestamp falls
//    behind one written before it (duration complete events are written when they end): every
//    later record of the provider is at least (latest timestamp so far - lag);
//  - the counter series, process and thread names, koids and CPUs, for declare() and describe().
// Records that fail to parse are skipped here silently; the second pass reports them.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "collectors/fxt/counter_series.hpp"
#include "collectors/fxt/koid_map.hpp"
#include "collectors/fxt/page_release.hpp"
#include "collectors/source.hpp"
#include "protocol/wire/byte_reader.hpp"

namespace apcgate::collectors::fxt {

// Records before any provider metadata belong to this provider (provider ids are 32-bit).
inline constexpr std::uint64_t kDefaultProvider = std::uint64_t{1} << 32;

struct Section {
    std::size_t begin = 0;
    std::size_t end = 0;
};

struct ProviderIndex {
    std::uint64_t key = kDefaultProvider;
    std::string name;
    std::vector<Section> sections;  // in file order
    model::Nanos first_ns = kNever;
    model::Nanos lag_ns = 0;
};

struct ThreadInfo {
    std::uint64_t pid = 0;  // process koid, 0 when unknown
    std::string_view name;  // first kernel object name, empty when none
};

struct ArchiveIndex {
    wire::Endian endian = wire::Endian::Little;
    std::vector<ProviderIndex> providers;
    model::Nanos origin_ns = kNever;  // earliest timestamp of any record
    CounterSeriesSet counters;
    KoidMap koids;
    std::unordered_map<std::uint64_t, std::string_view> process_names;  // koid -> first name
    std::unordered_map<std::uint64_t, ThreadInfo> threads;              // thread koid -> info
    int cpus = 0;               // highest CPU number of a context switch + 1
    bool has_switches = false;  // any context switch record
};

// Reads every record of `data` once. Never fails: what cannot be read is left to the second pass.
// With `release`, the pages read are given back as the pass moves on (page_release.hpp).
ArchiveIndex build_index(std::span<const std::uint8_t> data, PageRelease* release = nullptr);

}  // namespace apcgate::collectors::fxt
