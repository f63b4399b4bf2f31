#include "protocol/perf_framing/capture_check.hpp"

#include <linux/perf_event.h>

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "protocol/wire/overloaded.hpp"

namespace apcgate::perf_framing {

namespace {

std::uint64_t load_le64(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    return v;
}

std::string hex(std::int64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));  // NOLINT
    return buf;
}

// The "name: X" line of a tracepoint format file.
std::string format_name(std::string_view text) {
    const auto pos = text.find("name: ");
    if (pos == std::string_view::npos) return {};
    const auto start = pos + 6;
    const auto end = text.find('\n', start);
    return std::string(text.substr(start, end == std::string_view::npos ? end : end - start));
}

}  // namespace

void KeyValues::add(std::int64_t v) {
    if (values == 0) min = max = v;
    min = std::min(min, v);
    max = std::max(max, v);
    last = v;
    ++values;
}

PerfCaptureChecker::PerfCaptureChecker(std::set<std::int32_t> captured_keys,
                                       std::function<void(const RecordView&)> on_record)
    : captured_keys_(std::move(captured_keys)), on_record_(std::move(on_record)) {}

void PerfCaptureChecker::violation(std::uint64_t offset, std::string text) {
    if (violations_.size() >= max_violations_) {
        ++suppressed_;
        return;
    }
    violations_.push_back({offset, std::move(text)});
}

void PerfCaptureChecker::need_summary(std::uint64_t offset, const char* what) {
    if (summaries_ == 0)
        violation(offset, std::string(what) + " before the Summary that its times are relative to");
}

void PerfCaptureChecker::counter_value(std::uint64_t offset, std::int32_t key, std::int64_t v,
                                       bool must_be_listed) {
    if (captured_keys_.count(key) == 0) {
        if (must_be_listed) violation(offset, "key " + hex(key) + " is not in captured.xml");
        return;
    }
    t_.counter_values[key].add(v);
}

void PerfCaptureChecker::frame(std::span<const std::uint8_t> body, std::uint64_t body_offset) {
    ++t_.frames;
    auto decoded = decode_perf_frame(body, body_offset);
    if (!decoded) {
        const Error& e = decoded.error();
        if (!body.empty())
            ++t_.frames_by_type[to_string(static_cast<std::int32_t>(body[0] & 0x7f))];
        violation(e.offset.value_or(body_offset), e.to_string());
        return;
    }
    const DecodedPerfFrame& f = *decoded;
    if (on_frame_) on_frame_(f, body.size());
    ++t_.frames_by_type[to_string(f.type)];
    std::visit(wire::Overloaded{
                   [&](const SummaryFrame& s) {
                       if (++summaries_ > 1) violation(f.offset, "a second Summary");
                       t_.summary = s;
                   },
                   [&](const CoreNameFrame&) {},
                   [&](const BlockCounterFrame& b) {
                       need_summary(f.offset, "Block Counter frame");
                       for (const auto& [key, value] : b.entries)
                           if (key > 2) counter_value(f.offset, key, value, true);
                   },
                   [&](const ExternalFrame&) {},
                   [&](const PerfAttrsFrame& a) { attrs(a); },
                   [&](const PerfDataFrame& d) {
                       need_summary(f.offset, "PERF_DATA frame");
                       perf_data(d);
                   },
                   [&](const PerfAuxFrame&) { need_summary(f.offset, "PERF_AUX frame"); },
                   [&](const PerfSyncFrame&) { need_summary(f.offset, "PERF_SYNC frame"); },
               },
               f.body);
}

void PerfCaptureChecker::attrs(const PerfAttrsFrame& f) {
    if (f.messages.empty()) ++t_.attrs_messages["empty frame"];
    for (const AttrsMessage& m : f.messages) {
        ++t_.attrs_messages[to_string(m.code)];
        std::visit(
            wire::Overloaded{
                [&](const PeaMessage& p) {
                    if (!(p.attr.sample_type & PERF_SAMPLE_IDENTIFIER) || !p.attr.sample_id_all())
                        violation(m.offset, "PEA key " + hex(p.key) +
                                                " lacks PERF_SAMPLE_IDENTIFIER or sample_id_all: "
                                                "its records cannot be tied to it");
                    auto [it, fresh] = t_.attrs.emplace(p.key, p.attr);
                    if (!fresh && it->second.bytes != p.attr.bytes)
                        violation(m.offset,
                                  "PEA key " + hex(p.key) + " given a second, different attr");
                },
                [&](const KeysMessage& k) {
                    for (const auto& [id, key] : k.ids) {
                        if (t_.attrs.count(key) == 0)
                            violation(m.offset, "KEYS maps id " + std::to_string(id) + " to key " +
                                                    hex(key) + ", which no PEA before it defines");
                        auto [it, fresh] = t_.ids.emplace(id, key);
                        if (!fresh && it->second != key)
                            violation(m.offset, "KEYS maps id " + std::to_string(id) +
                                                    " to a second key " + hex(key));
                    }
                },
                [&](const TextMessage& x) {
                    if (m.code == AttrsCode::Format)
                        t_.tracepoint_formats.push_back(format_name(x.text));
                },
                [&](const MapsMessage&) {},
                [&](const CommMessage& c) { t_.threads[c.tid] = std::string(c.comm); },
                [&](const CpuMessage& c) {
                    need_summary(m.offset,
                                 m.code == AttrsCode::OnlineCpu ? "ONLINE_CPU" : "OFFLINE_CPU");
                    if (m.code == AttrsCode::OnlineCpu) {
                        t_.online_cpus.insert(c.cpu);
                    } else {
                        t_.online_cpus.erase(c.cpu);
                    }
                },
                [&](const CountersMessage& c) {
                    need_summary(m.offset, "COUNTERS");
                    for (const auto& v : c.values) counter_value(m.offset, v.key, v.value, true);
                },
                [&](const BuildIdMessage&) {},
                [&](const OpaqueMessage&) {},
            },
            m.body);
    }
}

void PerfCaptureChecker::perf_data(const PerfDataFrame& f) {
    t_.packed_record_bytes += f.packed_bytes;
    t_.raw_record_bytes += f.raw.size();
    std::size_t pos = 0;
    while (pos < f.raw.size()) {
        const std::size_t word = pos / 8;
        const std::uint64_t offset = f.word_offsets[word];
        const RecordHeader h = record_header(load_le64(f.raw.data() + pos));
        if (h.size < kRecordHeaderBytes || h.size % 8 != 0) {
            violation(offset, "PERF_DATA cpu " + std::to_string(f.cpu) + ": " +
                                  record_type_name(h.type) + " record size " +
                                  std::to_string(h.size) + " is not a positive multiple of 8");
            return;
        }
        if (pos + h.size > f.raw.size()) {
            violation(offset, "PERF_DATA cpu " + std::to_string(f.cpu) + ": " +
                                  record_type_name(h.type) + " record of " +
                                  std::to_string(h.size) + " bytes runs past the frame's end (" +
                                  std::to_string(f.raw.size() - pos) + " bytes left)");
            return;
        }
        record(f, word, std::span<const std::uint8_t>(f.raw).subspan(pos, h.size));
        pos += h.size;
    }
}

void PerfCaptureChecker::record(const PerfDataFrame& f, std::size_t first_word,
                                std::span<const std::uint8_t> bytes) {
    const std::uint64_t offset = f.word_offsets[first_word];
    const RecordHeader h = record_header(load_le64(bytes.data()));
    const std::string where =
        "PERF_DATA cpu " + std::to_string(f.cpu) + ": " + record_type_name(h.type) + " record";
    ++t_.records[record_type_name(h.type)];
    const auto identifier = record_identifier(bytes);
    if (!identifier) {
        violation(offset, where + " too short to carry its identifier");
        return;
    }
    const auto id_it = t_.ids.find(*identifier);
    if (id_it == t_.ids.end()) {
        violation(offset,
                  where + ": identifier " + std::to_string(*identifier) + " has no KEYS entry");
        return;
    }
    const auto attr_it = t_.attrs.find(id_it->second);
    if (attr_it == t_.attrs.end()) {
        violation(offset, where + ": identifier " + std::to_string(*identifier) + " maps to key " +
                              hex(id_it->second) + ", which has no PEA");
        return;
    }
    auto parsed = parse_record(bytes, attr_it->second);
    if (!parsed) {
        const Error& e = parsed.error();
        const std::size_t at = static_cast<std::size_t>(e.offset.value_or(0)) / 8;
        const std::uint64_t err_offset =
            first_word + at < f.word_offsets.size() ? f.word_offsets[first_word + at] : offset;
        violation(err_offset, where + " (key " + hex(id_it->second) + ", " +
                                  std::to_string(bytes.size()) + " bytes at offset " +
                                  std::to_string(offset) + "): field '" + e.field +
                                  "': " + e.message);
        return;
    }
    const PerfRecord& rec = *parsed;
    if (rec.time) {
        if (!t_.first_time || *rec.time < *t_.first_time) t_.first_time = *rec.time;
        if (!t_.last_time || *rec.time > *t_.last_time) t_.last_time = *rec.time;
    }
    switch (h.type) {
        case PERF_RECORD_SAMPLE:
            ++t_.samples_by_key[id_it->second];
            for (const ReadValue& v : rec.reads) {
                if (!v.id) continue;
                const auto member = t_.ids.find(*v.id);
                if (member == t_.ids.end()) {
                    violation(offset, where + ": READ member id " + std::to_string(*v.id) +
                                          " has no KEYS entry");
                    continue;
                }
                counter_value(offset, member->second, static_cast<std::int64_t>(v.value), false);
            }
            break;
        case PERF_RECORD_LOST:
        case PERF_RECORD_LOST_SAMPLES:
            ++t_.lost_records;
            t_.lost_events += rec.lost;
            break;
        case PERF_RECORD_COMM:
            name_changes_.push_back({rec.time.value_or(0), static_cast<std::int32_t>(rec.body_tid),
                                     std::nullopt, std::string(rec.text)});
            break;
        case PERF_RECORD_FORK:
            name_changes_.push_back({rec.time.value_or(0),
                                     static_cast<std::int32_t>(rec.body_tid),
                                     static_cast<std::int32_t>(rec.parent_tid),
                                     {}});
            break;
        default:
            break;
    }
    if (on_record_) on_record_(RecordView{offset, f.cpu, id_it->second, &attr_it->second, &rec});
}

std::vector<PerfViolation> PerfCaptureChecker::finish() {
    std::stable_sort(name_changes_.begin(), name_changes_.end(),
                     [](const NameChange& a, const NameChange& b) { return a.time < b.time; });
    for (const NameChange& c : name_changes_) {
        if (!c.parent_tid) {
            t_.threads[c.tid] = c.comm;
        } else if (const auto parent = t_.threads.find(*c.parent_tid); parent != t_.threads.end()) {
            t_.threads[c.tid] = parent->second;
        }
    }
    name_changes_.clear();
    if (summaries_ == 0) violation(0, "the capture has no Summary");
    if (t_.summary && t_.summary->attribute("nosync") != nullptr) {
        // "nosync" says perf times are already CLOCK_MONOTONIC_RAW: every attr must say so.
        for (const auto& [key, attr] : t_.attrs)
            if (!attr.use_clockid() || attr.clockid != CLOCK_MONOTONIC_RAW)
                violation(0, "Summary says nosync but PEA key " + hex(key) +
                                 " does not sample CLOCK_MONOTONIC_RAW (use_clockid, clockid 4)");
    }
    if (suppressed_ > 0)
        violations_.push_back({0, std::to_string(suppressed_) + " more violations not listed"});
    return violations_;
}

}  // namespace apcgate::perf_framing
