#include "collectors/xray/problem_handover.hpp"

#include <map>
#include <string>

namespace apcgate::collectors::xray {

void add_report(const ingest::IngestReport& from, ingest::IngestReport& to) {
    const auto& problems = from.problems();
    // The stop is among the kept problems (a copy of it) unless the list was full by then;
    // problems found after it may follow it.
    const std::size_t stop_at = from.stop_index().value_or(problems.size());
    const bool stop_kept = stop_at < problems.size();
    std::map<std::string, std::uint64_t, std::less<>> replayed;  // bad counts re-added by kind
    std::uint64_t unkept = from.problem_count() - problems.size();
    for (std::size_t i = 0; i < problems.size(); ++i) {
        if (i == stop_at) {
            to.stopped(problems[i]);
            continue;
        }
        if (!problems[i].record.empty()) ++replayed[problems[i].record];
        to.bad_record(problems[i]);
    }
    if (from.stop_reason() && !stop_kept) {
        to.stopped(*from.stop_reason());
        --unkept;
    }
    // Problems `from` counted but did not keep: `to` is full by now (it took `from`'s whole
    // list), so these only count, under their kind when they had one.
    for (const auto& [kind, s] : from.kinds()) {
        if (s.read != 0) to.read(kind, s.read);
        if (s.mapped != 0) to.mapped(kind, s.mapped);
        if (s.skipped != 0) to.skipped(kind, s.skipped);
        const auto it = replayed.find(kind);
        const std::uint64_t kept = it == replayed.end() ? 0 : it->second;
        for (std::uint64_t n = kept; n < s.bad && unkept > 0; ++n, --unkept) {
            Error e = Error::at(ErrorKind::Malformed, "(not kept)");
            e.record = kind;
            to.bad_record(std::move(e));
        }
    }
    for (; unkept > 0; --unkept) to.bad_record(Error::at(ErrorKind::Malformed, "(not kept)"));
    for (const auto& note : from.notes()) to.note(note);
    to.add_statistics(from.format_statistics());
}

}  // namespace apcgate::collectors::xray
