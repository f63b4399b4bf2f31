#include "collectors/ingest/ingest_report.hpp"

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
