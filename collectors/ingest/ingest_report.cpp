#include "collectors/ingest/ingest_report.hpp"

#include <algorithm>

namespace apcgate::collectors::ingest {

RecordStats& IngestReport::stats(std::string_view kind) {
    auto it = kinds_.find(kind);
    if (it == kinds_.end()) it = kinds_.emplace(std::string(kind), RecordStats{}).first;
    return it->second;
}

void IngestReport::bad_record(Error e) {
    if (!e.record.empty()) ++stats(e.record).bad;
    ++problem_count_;
    if (e.input.empty()) e.input = input_;
    if (problems_.size() < kMaxKeptProblems) problems_.push_back(std::move(e));
}

void IngestReport::stopped(Error e) {
    if (e.input.empty()) e.input = input_;
    const bool first = !stop_;
    if (first) stop_ = e;
    ++problem_count_;
    if (problems_.size() < kMaxKeptProblems) {
        if (first) stop_index_ = problems_.size();
        problems_.push_back(std::move(e));
    }
}

void IngestReport::cut_short(Error e) {
    if (e.input.empty()) e.input = input_;
    stop_ = e;
    ++problem_count_;
    if (problems_.size() < kMaxKeptProblems) {
        stop_index_ = problems_.size();
        problems_.push_back(std::move(e));
    } else {
        stop_index_.reset();
    }
}

namespace {

// Tables have a few entries, added about once per poll: a linear search is enough.
auto find_statistic(auto& values, const model::StatisticSpec* spec) {
    return std::find_if(values.begin(), values.end(),
                        [spec](const model::StatisticValue& have) { return have.spec == spec; });
}

}  // namespace

void IngestReport::add_statistics(std::span<const model::StatisticValue> values) {
    for (const auto& v : values) {
        const auto it = find_statistic(format_statistics_, v.spec);
        if (it == format_statistics_.end()) {
            format_statistics_.push_back(v);
        } else {
            it->value += v.value;
        }
    }
}

std::uint64_t IngestReport::statistic(const model::StatisticSpec& spec) const {
    const auto it = find_statistic(format_statistics_, &spec);
    return it == format_statistics_.end() ? 0 : it->value;
}

std::vector<model::StatisticValue> IngestReport::statistic_values() const {
    std::vector<model::StatisticValue> out = statistics().values();
    out.insert(out.end(), format_statistics_.begin(), format_statistics_.end());
    return out;
}

IngestStatistics IngestReport::statistics() const {
    IngestStatistics s;
    for (const auto& [kind, k] : kinds_) {
        s[IngestStat::RecordsRead] += k.read;
        s[IngestStat::RecordsMapped] += k.mapped;
        s[IngestStat::RecordsSkipped] += k.skipped;
        s[IngestStat::RecordsBad] += k.bad;
    }
    s[IngestStat::Problems] = problem_count_;
    if (stop_ && bytes_total > bytes_done) s[IngestStat::BytesUnread] = bytes_total - bytes_done;
    return s;
}

}  // namespace apcgate::collectors::ingest
