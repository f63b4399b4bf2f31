// The first pass: tokenize and parse every record once in file order, switching provider state
// at provider metadata records (spec "Provider info metadata", "Provider section metadata"), and
// note what archive_index.hpp lists. It reads through the same tokenizer and parser as the
// second pass, so both agree on where records and sections are; event records other than
// counters are only outlined (event_outline.hpp), with the parser's checks.
#include "collectors/fxt/archive_index.hpp"

#include <algorithm>
#include <map>

#include "collectors/fxt/event_outline.hpp"
#include "collectors/fxt/provider_tables.hpp"
#include "collectors/fxt/record_parser.hpp"
#include "collectors/fxt/text.hpp"
#include "collectors/fxt/tokenizer.hpp"

namespace apcgate::collectors::fxt {

namespace {

class Indexer {
  public:
    explicit Indexer(ArchiveIndex& idx) : idx_(idx) { switch_to(kDefaultProvider, 0, false); }

    void record(const RawRecord& raw, const Record& rec) {
        if (const auto* info = std::get_if<ProviderInfoRecord>(&rec)) {
            switch_to(info->id, raw.offset, true);
            idx_.providers[current_].name = clean_utf8(info->name);
        } else if (const auto* section = std::get_if<ProviderSectionRecord>(&rec)) {
            switch_to(section->id, raw.offset, false);
        }
        ProviderTables& tables = tables_[current_];
        tables.apply(rec);
        if (auto ticks = start_ticks(rec)) time(tables, *ticks);
        std::visit([this](const auto& r) { observe(r); }, rec);
    }

    // An event record, which changes no table: a counter parsed whole (RecordParser::parse_event),
    // any other outlined (event_outline.hpp).
    void event(const EventRecord& e) {
        time(tables_[current_], e.ticks);
        observe(e);
    }
    void event(const EventOutline& e) {
        time(tables_[current_], e.ticks);
        thread(e.thread);
    }

    // A scheduling record (RecordParser::parse_scheduling), which changes no table either.
    void scheduling(const SchedulingRecord& s) {
        time(tables_[current_], s.ticks());
        if (s.is_switch()) {
            observe(s.context_switch);
        } else if (s.type == SchedulingType::ThreadWakeup) {
            observe(s.wakeup);
        }
    }

    void finish(std::size_t end) {
        close_section(end);
        idx_.counters.finish();
        for (const auto& p : idx_.providers) idx_.origin_ns = std::min(idx_.origin_ns, p.first_ns);
    }

    ProviderTables& tables() { return tables_[current_]; }

  private:
    void close_section(std::size_t end) {
        auto& secs = idx_.providers[current_].sections;
        if (end <= section_begin_) return;
        if (!secs.empty() && secs.back().end == section_begin_) {
            secs.back().end = end;  // a provider section record for the provider already current
        } else {
            secs.push_back({section_begin_, end});
        }
    }

    void switch_to(std::uint64_t key, std::size_t at, bool fresh) {
        if (!idx_.providers.empty()) close_section(at);
        auto [it, added] = by_key_.emplace(key, idx_.providers.size());
        if (added) {
            idx_.providers.push_back(ProviderIndex{key, {}, {}, kNever, 0});
            tables_.emplace_back();
            running_max_.push_back(kNever);
        }
        current_ = it->second;
        section_begin_ = at;
        if (fresh) tables_[current_].reset();
    }

    void time(const ProviderTables& tables, std::uint64_t ticks) {
        const auto ns = tables.to_ns(ticks);
        if (!ns) return;
        ProviderIndex& p = idx_.providers[current_];
        model::Nanos& latest = running_max_[current_];
        p.first_ns = std::min(p.first_ns, *ns);
        if (latest != kNever && latest > *ns) p.lag_ns = std::max(p.lag_ns, latest - *ns);
        latest = latest == kNever ? *ns : std::max(latest, *ns);
    }

    void thread(const ThreadKoids& t) {
        if (t == last_thread_) return;  // runs of one thread are the common case
        last_thread_ = t;
        idx_.koids.note(t.pid);
        idx_.koids.note(t.tid);
        if (t.tid == 0) return;
        auto& info = idx_.threads[t.tid];
        if (info.pid == 0) info.pid = t.pid;
    }

    void observe(const EventRecord& e) {
        thread(e.thread);
        if (e.type != EventType::Counter) return;
        for (const Arg& a : e.args) idx_.counters.observe(e.category, e.name, a);
    }
    void observe(const ThreadRecord& t) { thread(t.thread); }
    void observe(const LogRecord& l) { thread(l.thread); }
    void observe(const ContextSwitchRecord& s) {
        idx_.has_switches = true;
        idx_.cpus = std::max(idx_.cpus, static_cast<int>(std::min<std::uint32_t>(s.cpu, 4095)) + 1);
        thread(s.outgoing);
        thread(s.incoming);
    }
    void observe(const ThreadWakeupRecord& w) { idx_.koids.note(w.tid); }
    void observe(const UserspaceObjectRecord& o) { idx_.koids.note(o.pid); }
    void observe(const KernelObjectRecord& k) {
        idx_.koids.note(k.koid);
        if (k.object_type == kObjTypeProcess) {
            idx_.process_names.emplace(k.koid, k.name);
        } else if (k.object_type == kObjTypeThread) {
            auto& info = idx_.threads[k.koid];
            if (info.name.empty()) info.name = k.name;
            const Arg* process = k.args.find("process");
            if (process != nullptr && process->type == ArgType::Koid) {
                info.pid = process->u();
                idx_.koids.note(process->u());
            }
        }
    }
    template <typename R>
    void observe(const R&) {}

    ArchiveIndex& idx_;
    std::map<std::uint64_t, std::size_t> by_key_;
    std::vector<ProviderTables> tables_;
    std::vector<model::Nanos> running_max_;
    std::size_t current_ = 0;
    std::size_t section_begin_ = 0;
    ThreadKoids last_thread_{~std::uint64_t{0}, ~std::uint64_t{0}};
};

}  // namespace

ArchiveIndex build_index(std::span<const std::uint8_t> data, PageRelease* release) {
    ArchiveIndex idx;
    idx.endian = detect_endian(data);
    Indexer indexer(idx);
    Tokenizer tokenizer(data, idx.endian);
    const RecordParser parser(idx.endian);
    Record rec;
    EventRecord event;
    EventOutline outline;
    SchedulingRecord scheduling;
    Error failure;  // unused: the second pass reports what fails
    for (;;) {
        RawRecord raw;
        if (!tokenizer.next_whole(raw)) {
            auto next = tokenizer.next();
            if (!next || !*next) break;
            raw = **next;
        }
        if (RecordParser::is_event(raw)) {
            if (bits(raw.header, 16, 19) == static_cast<unsigned>(EventType::Counter)) {
                if (parser.parse_event(raw, indexer.tables(), event, failure)) indexer.event(event);
            } else if (outline_event(raw, idx.endian, indexer.tables(), outline)) {
                indexer.event(outline);
            }
        } else if (RecordParser::is_scheduling(raw)) {
            if (parser.parse_scheduling(raw, indexer.tables(), scheduling, failure))
                indexer.scheduling(scheduling);
        } else if (parser.parse(raw, indexer.tables(), rec).ok()) {
            indexer.record(raw, rec);
        }
        if (release != nullptr) release->upto(tokenizer.position());
    }
    // The last section runs to the end of the input, so the second pass meets the same
    // truncation or corruption and reports it.
    indexer.finish(data.size());
    return idx;
}

}  // namespace apcgate::collectors::fxt
