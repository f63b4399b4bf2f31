#include "collectors/fxt/item_builder.hpp"

#include "collectors/fxt/record_kinds.hpp"

namespace apcgate::collectors::fxt {

namespace {

constexpr std::string_view kNoLabel;

ItemKind kind_of(EventType t) {
    switch (t) {
        case EventType::DurationBegin:
        case EventType::DurationComplete:
            return ItemKind::SpanOpen;
        case EventType::DurationEnd:
            return ItemKind::SpanClose;
        case EventType::AsyncBegin:
            return ItemKind::AsyncOpen;
        case EventType::AsyncEnd:
            return ItemKind::AsyncClose;
        case EventType::FlowBegin:
            return ItemKind::FlowOpen;
        case EventType::FlowStep:
            return ItemKind::FlowStep;
        case EventType::FlowEnd:
            return ItemKind::FlowClose;
        default:
            return ItemKind::Note;  // instant, async instant
    }
}

}  // namespace

ItemBuilder::ItemBuilder(const ArchiveIndex& index, KoidMap& koids, ingest::IngestReport& report,
                         std::size_t spare_texts)
    : index_(index), report_(report), koids_(koids), texts_(spare_texts) {
    labels_.pointer = [this](std::uint64_t p) { return tables_ ? tables_->object(p) : kNoLabel; };
    labels_.koid = [this](std::uint64_t koid) {
        if (auto t = index_.threads.find(koid); t != index_.threads.end()) return t->second.name;
        auto p = index_.process_names.find(koid);
        return p == index_.process_names.end() ? kNoLabel : p->second;
    };
}

std::optional<model::Nanos> ItemBuilder::time(const Context& c, std::uint64_t ticks) {
    if (c.start) return c.start;  // the provider stream divided already
    auto ns = c.tables.to_ns(ticks);
    if (!ns) {
        Error e =
            Error::at(ErrorKind::Malformed, "timestamp of " + std::to_string(ticks) + " ticks at " +
                                                std::to_string(c.tables.ticks_per_second()) +
                                                " ticks/s is past 2^63 ns");
        e.offset = c.raw.offset + kWordBytes;
        e.record = std::string(kind::of_header(c.raw.header));
        e.field = "timestamp";
        report_.bad_record(std::move(e));
        bad_time_ = true;
    }
    return ns;
}

Item& ItemBuilder::item(const Context& c, ItemKind kind, model::Nanos ts) {
    Item& it = c.out.emplace_back();
    it.kind = kind;
    it.ts = ts;
    it.seq = seq_++;
    return it;
}

void ItemBuilder::clean_text(Item& it, std::string_view in) {
    texts_.take(it.text);
    append_utf8(it.text, in);
}

void ItemBuilder::recycle(std::vector<Item>& items) {
    // A text the mapper moved away (async and flow names, markers) comes back empty and is
    // simply not kept.
    for (Item& it : items) texts_.give(std::move(it.text));
    items.clear();
}

template <typename R>
void ItemBuilder::build_mapped(const RawRecord& raw, const R& r, const ProviderTables& tables,
                               model::Nanos now, std::optional<model::Nanos> start,
                               std::vector<Item>& out) {
    const Context c{raw, tables, now, out, start};
    tables_ = &tables;
    const std::size_t before = out.size();
    bad_time_ = false;
    add(c, r);
    tables_ = nullptr;
    // Counted after add(), which may count a kind of its own first.
    ingest::RecordStats& stats = tally_.stats(kind::of_header(raw.header));
    ++stats.read;
    if (out.size() > before) {
        ++stats.mapped;
    } else if (!bad_time_) {
        ++stats.skipped;  // e.g. a kernel object that is no process or thread
    }
}

void ItemBuilder::build(const RawRecord& raw, const EventRecord& e, const ProviderTables& tables,
                        model::Nanos now, std::optional<model::Nanos> start,
                        std::vector<Item>& out) {
    build_mapped(raw, e, tables, now, start, out);
}

void ItemBuilder::build(const RawRecord& raw, const SchedulingRecord& s,
                        const ProviderTables& tables, model::Nanos now,
                        std::optional<model::Nanos> start, std::vector<Item>& out) {
    if (s.is_switch()) {
        build_mapped(raw, s.context_switch, tables, now, start, out);
        return;
    }
    // Wakeups and fiber switches: decoded, as build(Record) counts them.
    const std::string_view kind = kind::of_header(raw.header);
    tally_.read(kind);
    tally_.skipped(kind);
}

void ItemBuilder::build(const RawRecord& raw, const Record& rec, const ProviderTables& tables,
                        model::Nanos now, std::vector<Item>& out) {
    std::visit(
        [&](const auto& r) {
            using R = std::decay_t<decltype(r)>;
            if constexpr (std::is_same_v<R, EventRecord> ||
                          std::is_same_v<R, ContextSwitchRecord> || std::is_same_v<R, LogRecord> ||
                          std::is_same_v<R, KernelObjectRecord> ||
                          std::is_same_v<R, ProviderEventRecord>) {
                build_mapped(raw, r, tables, now, std::nullopt, out);
            } else {
                const std::string_view kind = kind::of_header(raw.header);
                tally_.read(kind);
                if constexpr (std::is_same_v<R, BlobRecord> || std::is_same_v<R, LargeBlobRecord> ||
                              std::is_same_v<R, ThreadWakeupRecord> ||
                              std::is_same_v<R, FiberSwitchRecord> ||
                              std::is_same_v<R, TraceInfoRecord>) {
                    tally_.skipped(kind);  // decoded, but Streamline has nothing to show them as
                }
                // Magic, provider info/section, initialization, string, thread and userspace
                // object records only set up the tables the other records are read with.
            }
        },
        rec);
}

void ItemBuilder::add(const Context& c, const EventRecord& e) {
    const auto ts = time(c, e.ticks);
    if (!ts) return;
    if (e.type == EventType::Counter) return counter(c, e, *ts);
    Item& it = item(c, kind_of(e.type), *ts);
    it.tid = id(e.thread.tid);
    it.pid = id(e.thread.pid);
    it.id = e.extra;
    if (e.type != EventType::DurationEnd && e.type != EventType::AsyncEnd &&
        e.type != EventType::FlowEnd) {
        texts_.take(it.text);
        append_event_text(it.text, e.category, e.name, e.args, &labels_);
    }
    if (e.type == EventType::AsyncInstant) it.text += " (async " + std::to_string(e.extra) + ")";
    if (e.type == EventType::DurationBegin) it.value = kOpenEnded;
    if (e.type == EventType::DurationComplete) {
        // An end before the begin (or past 2^63 ns) makes a zero-length span.
        const auto end = c.tables.to_ns(e.extra);
        it.value = end && *end >= *ts ? *end : *ts;
    }
}

void ItemBuilder::counter(const Context& c, const EventRecord& e, model::Nanos ts) {
    for (const Arg& a : e.args) {
        const auto series = index_.counters.find(e.name, a.name);
        const auto value = series ? index_.counters.value(*series, a) : std::nullopt;
        if (!value) {
            tally_.skipped(kind::kCounterArg);
            continue;
        }
        Item& it = item(c, ItemKind::Counter, ts);
        it.tid = id(e.thread.tid);
        it.pid = id(e.thread.pid);
        it.id = *series;
        it.value = *value;
    }
}

void ItemBuilder::add(const Context& c, const ContextSwitchRecord& s) {
    const auto ts = time(c, s.ticks);
    if (!ts) return;
    Item& it = item(c, ItemKind::Switch, *ts);
    it.cpu = static_cast<std::int32_t>(s.cpu);
    it.tid = s.incoming_idle ? -1 : id(s.incoming.tid);
    it.pid = s.incoming_idle ? 0 : id(s.incoming.pid);
    it.other = s.outgoing_idle ? -1 : id(s.outgoing.tid);
    const auto state = static_cast<ThreadState>(s.outgoing_state);
    if (s.outgoing_idle) it.flags |= kOutgoingIdle;
    if (!s.outgoing_idle && state == ThreadState::Dead) it.flags |= kOutgoingDead;
    if (state == ThreadState::New || state == ThreadState::Running) it.flags |= kOutgoingPreempted;
}

void ItemBuilder::add(const Context& c, const LogRecord& l) {
    const auto ts = time(c, l.ticks);
    if (!ts) return;
    Item& it = item(c, ItemKind::Note, *ts);
    it.tid = id(l.thread.tid);
    it.pid = id(l.thread.pid);
    clean_text(it, l.message);
}

void ItemBuilder::add(const Context& c, const KernelObjectRecord& k) {
    if (k.object_type == kObjTypeThread) {
        Item& it = item(c, ItemKind::ThreadName, c.now);
        it.tid = id(k.koid);
        const Arg* process = k.args.find("process");
        if (process != nullptr && process->type == ArgType::Koid) it.pid = id(process->u());
        clean_text(it, k.name);
    } else if (k.object_type == kObjTypeProcess) {
        Item& it = item(c, ItemKind::ProcessName, c.now);
        it.pid = id(k.koid);
        clean_text(it, k.name);
    }
}

void ItemBuilder::add(const Context& c, const ProviderEventRecord& p) {
    if (p.event != kProviderEventBufferFull) return;
    Item& it = item(c, ItemKind::Marker, c.now);
    it.text = "FXT provider " + std::to_string(p.id) + ": buffer full, records were likely dropped";
}

}  // namespace apcgate::collectors::fxt
