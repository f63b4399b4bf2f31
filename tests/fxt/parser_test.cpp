// The parser on one hand-built record of every type, in both byte orders: fields in the header's
// bit positions, inline and indexed strings and threads, every argument type, and the errors for
// types and sizes it cannot read.
#include <gtest/gtest.h>

#include "collectors/fxt/record_kinds.hpp"
#include "collectors/fxt/record_parser.hpp"
#include "collectors/fxt/text.hpp"
#include "fxt_writer.hpp"

namespace apcgate::collectors::fxt {
namespace {

using namespace fxt_test;  // NOLINT: the writer's small vocabulary

class FxtParser : public ::testing::TestWithParam<bool> {
  protected:
    FxtWriter writer() const { return FxtWriter(GetParam()); }
    wire::Endian endian() const { return GetParam() ? wire::Endian::Big : wire::Endian::Little; }

    // Parses the single record in `bytes` (after applying each earlier record to the tables).
    Result<Record> last(const std::vector<std::uint8_t>& bytes) {
        Tokenizer t(bytes, endian());
        RecordParser p(endian());
        std::optional<Result<Record>> result;
        for (;;) {
            auto raw = t.next();
            if (!raw || !*raw) break;
            Record rec;
            Status st = p.parse(**raw, tables_, rec);
            if (st) {
                tables_.apply(rec);
                result.emplace(rec);
            } else {
                result.emplace(std::move(st).take_error());
            }
        }
        EXPECT_TRUE(result.has_value());
        return result ? std::move(*result)
                      : Result<Record>(Error::at(ErrorKind::Internal, "no record"));
    }
    template <typename T>
    T parsed(const std::vector<std::uint8_t>& bytes) {
        auto r = last(bytes);
        EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
        if (!r.ok() || !std::holds_alternative<T>(*r)) {
            ADD_FAILURE() << "not the expected record type";
            return T{};
        }
        return std::get<T>(*r);
    }
    ProviderTables tables_;
};

// Plain ASCII goes through as it is, wherever it stands; the first other byte and everything
// after it are cleaned: valid sequences kept, NUL dropped, other control bytes and broken
// sequences replaced.
TEST(FxtText, TextIsCleanedToUtf8AfterAndBetweenPlainStretches) {
    const std::string fffd = "\xEF\xBF\xBD";
    EXPECT_EQ(clean_utf8("plain ~\x7F\ttext\n"), "plain ~\x7F\ttext\n");
    EXPECT_EQ(clean_utf8("caf\xC3\xA9 ok"), "caf\xC3\xA9 ok");
    EXPECT_EQ(clean_utf8("a\x01"
                         "b"),
              "a" + fffd + "b");
    EXPECT_EQ(clean_utf8(std::string_view("a\0b", 3)), "ab");
    EXPECT_EQ(clean_utf8("x\xC3(y\xE2\x82"), "x" + fffd + "(y" + fffd + fffd);
    EXPECT_EQ(clean_utf8("\xF0\x9F\x98\x80 end"), "\xF0\x9F\x98\x80 end");
    EXPECT_EQ(clean_utf8("\xED\xA0\x80"), fffd + fffd + fffd);  // a surrogate
    EXPECT_EQ(clean_utf8(""), "");
}

// The same text whichever way it is written: plain ASCII with integer, boolean, null and string
// arguments (written without cleaning), or anything else (cleaned, doubles, longer texts).
TEST(FxtText, EventTextIsTheSameOnEitherPath) {
    auto arg = [](std::string_view name, ArgType type, std::uint64_t value,
                  std::string_view text = {}) {
        Arg a{};
        a.name = name;
        a.type = type;
        a.value = value;
        a.s = text;
        return a;
    };
    auto list = [](std::initializer_list<Arg> items) {
        ArgList l;
        for (const Arg& a : items) l.items[l.count++] = a;
        return l;
    };
    // Appended after what the string held (the item builder's come from a pool, emptied).
    auto event_text = [](std::string_view category, std::string_view name, const ArgList& args) {
        std::string out = "kept|";
        append_event_text(out, category, name, args);
        EXPECT_EQ(out.substr(0, 5), "kept|");
        return out.substr(5);
    };
    const ArgList plain =
        list({arg("n", ArgType::Int32, static_cast<std::uint64_t>(-7)),
              arg("u", ArgType::UInt64, 18446744073709551615U), arg("ok", ArgType::Bool, 1),
              arg("none", ArgType::Null, 0), arg("s", ArgType::String, 0, "hi there")});
    EXPECT_EQ(event_text("gfx", "Frame", plain),
              "gfx:Frame n=-7 u=18446744073709551615 ok=true none s=hi there");
    EXPECT_EQ(event_text("", "Frame", list({})), "Frame");
    EXPECT_EQ(event_text("gfx", "Fr\xC3\xA9me\x01", list({})), "gfx:Fr\xC3\xA9me\xEF\xBF\xBD");
    EXPECT_EQ(
        event_text("c", "n", list({arg("s", ArgType::String, 0, std::string_view("a\0b", 3))})),
        "c:n s=ab");
    EXPECT_EQ(event_text("c", "n", list({arg("d", ArgType::Double, 0x3FF8000000000000U)})),
              "c:n d=1.5");
    EXPECT_EQ(event_text("c", "n", list({arg("p", ArgType::Pointer, 255)})), "c:n p=0xff");
    const std::string long_name(300, 'x');
    EXPECT_EQ(event_text("c", long_name, plain),
              "c:" + long_name + " n=-7 u=18446744073709551615 ok=true none s=hi there");
}

// A table answers the last definition of each index, whether the index lies in its array or
// its map, and whether the array grew over an index the map held.
TEST(FxtTables, IndexTableKeepsTheLastDefinitionWhereverItLies) {
    ProviderTables::IndexTable<int> t;
    t.set(30000, 1);  // far past the array: the map
    t.set(40, 2);     // past 2 * 2 + 8: the map too
    for (int i = 1; i <= 30; ++i) t.set(static_cast<std::size_t>(i), 100 + i);  // the array
    t.set(40, 3);  // the array has grown over it: defined there, gone from the map
    t.set(7, 4);   // redefined
    ASSERT_NE(t.find(30000), nullptr);
    EXPECT_EQ(*t.find(30000), 1);
    ASSERT_NE(t.find(40), nullptr);
    EXPECT_EQ(*t.find(40), 3);
    ASSERT_NE(t.find(7), nullptr);
    EXPECT_EQ(*t.find(7), 4);
    ASSERT_NE(t.find(30), nullptr);
    EXPECT_EQ(*t.find(30), 130);
    EXPECT_EQ(t.find(0), nullptr);
    EXPECT_EQ(t.find(35), nullptr);
    EXPECT_EQ(t.find(29999), nullptr);
    ProviderTables::IndexTable<int> sparse;
    sparse.set(50, 5);  // only the map, and an array lookup that finds nothing goes there
    sparse.set(1, 6);
    ASSERT_NE(sparse.find(50), nullptr);
    EXPECT_EQ(*sparse.find(50), 5);
    ASSERT_NE(sparse.find(1), nullptr);
    EXPECT_EQ(*sparse.find(1), 6);
    EXPECT_EQ(sparse.find(2), nullptr);
}

TEST_P(FxtParser, MetadataRecords) {
    FxtWriter w = writer();
    w.provider_info(0x12345678, "the provider");
    auto info = parsed<ProviderInfoRecord>(w.bytes());
    EXPECT_EQ(info.id, 0x12345678U);
    EXPECT_EQ(info.name, "the provider");

    FxtWriter s = writer();
    s.provider_section(77);
    EXPECT_EQ(parsed<ProviderSectionRecord>(s.bytes()).id, 77U);

    FxtWriter e = writer();
    e.provider_event(9, 0);
    EXPECT_EQ(parsed<ProviderEventRecord>(e.bytes()).id, 9U);

    FxtWriter m = writer();
    m.magic();
    EXPECT_TRUE(std::holds_alternative<MagicRecord>(*last(m.bytes())));

    FxtWriter ti = writer();
    ti.trace_info(3);
    EXPECT_EQ(parsed<TraceInfoRecord>(ti.bytes()).info_type, 3U);
}

TEST_P(FxtParser, InitializationStringAndThreadRecordsFillTheTables) {
    FxtWriter w = writer();
    w.initialization(19'200'000);
    w.string_record(0x7fff, "last index");
    w.thread_record(255, 0x1111, 0x2222);
    const auto t = parsed<ThreadRecord>(w.bytes());
    EXPECT_EQ(t.index, 255);
    EXPECT_EQ(t.thread, (ThreadKoids{0x1111, 0x2222}));
    EXPECT_EQ(tables_.ticks_per_second(), 19'200'000U);
    EXPECT_EQ(tables_.string(0x7fff), "last index");
    EXPECT_EQ(tables_.to_ns(19'200'000), std::optional<model::Nanos>(1'000'000'000));
}

TEST_P(FxtParser, EventWithIndexedRefsAndEveryArgumentType) {
    FxtWriter w = writer();
    w.string_record(1, "cat");
    w.string_record(2, "name");
    w.string_record(3, "sval");
    w.thread_record(4, 10, 11);
    w.event(4, 500, thr(4), idx(1), idx(2),
            {arg_null(inl("n")), arg_i32(inl("i32"), -5), arg_u32(idx(2), 4000000000U),
             arg_i64(inl("i64"), -1LL << 40), arg_u64(inl("u64"), ~0ULL), arg_double(inl("d"), 2.5),
             arg_string(inl("s1"), idx(3)), arg_string(inl("s2"), inl("inline value")),
             arg_pointer(inl("p"), 0xdeadbeef), arg_koid(inl("k"), 42), arg_bool(inl("b"), true)},
            900);
    const auto e = parsed<EventRecord>(w.bytes());
    EXPECT_EQ(e.type, EventType::DurationComplete);
    EXPECT_EQ(e.ticks, 500U);
    EXPECT_EQ(e.thread, (ThreadKoids{10, 11}));
    EXPECT_EQ(e.category, "cat");
    EXPECT_EQ(e.name, "name");
    EXPECT_EQ(e.extra, 900U);
    ASSERT_EQ(e.args.count, 11U);
    const auto& a = e.args.items;
    EXPECT_EQ(a[0].type, ArgType::Null);
    EXPECT_EQ(a[1].i(), -5);
    EXPECT_EQ(a[2].name, "name");
    EXPECT_EQ(a[2].u(), 4000000000U);
    EXPECT_EQ(a[3].i(), -1LL << 40);
    EXPECT_EQ(a[4].u(), ~0ULL);
    EXPECT_EQ(a[5].d(), 2.5);
    EXPECT_EQ(a[6].s, "sval");
    EXPECT_EQ(a[7].s, "inline value");
    EXPECT_EQ(a[8].u(), 0xdeadbeefU);
    EXPECT_EQ(a[9].type, ArgType::Koid);
    EXPECT_EQ(a[9].u(), 42U);
    EXPECT_EQ(a[10].i(), 1);
}

TEST_P(FxtParser, EventWithInlineThreadAndStrings) {
    FxtWriter w = writer();
    w.event(7, 12345, inline_thread(0x1aaaaaaaaaaaaaaaULL, 0x1bbbbbbbbbbbbbbbULL), inl("category"),
            inl("name that is longer than eight"), {}, 0xabc);
    const auto e = parsed<EventRecord>(w.bytes());
    EXPECT_EQ(e.type, EventType::AsyncEnd);
    EXPECT_EQ(e.thread.pid, 0x1aaaaaaaaaaaaaaaULL);
    EXPECT_EQ(e.thread.tid, 0x1bbbbbbbbbbbbbbbULL);
    EXPECT_EQ(e.category, "category");
    EXPECT_EQ(e.name, "name that is longer than eight");
    EXPECT_EQ(e.extra, 0xabcU);
}

TEST_P(FxtParser, RedefinedTableEntriesApplyToLaterRecords) {
    FxtWriter w = writer();
    w.string_record(5, "old");
    w.thread_record(1, 1, 2);
    w.string_record(5, "new");
    w.thread_record(1, 3, 4);
    w.event(0, 1, thr(1), idx(5), idx(5));
    const auto e = parsed<EventRecord>(w.bytes());
    EXPECT_EQ(e.name, "new");
    EXPECT_EQ(e.thread, (ThreadKoids{3, 4}));
}

TEST_P(FxtParser, BlobsObjectsSchedulingAndLogs) {
    FxtWriter b = writer();
    b.blob(inl("blob"), "payload!!", 2);
    const auto blob = parsed<BlobRecord>(b.bytes());
    EXPECT_EQ(blob.name, "blob");
    EXPECT_EQ(blob.size, 9U);
    EXPECT_EQ(blob.blob_type, 2U);

    FxtWriter lb = writer();
    lb.large_blob(0, inl("cat"), inl("big"), 77, inline_thread(1, 2), "0123456789");
    const auto large = parsed<LargeBlobRecord>(lb.bytes());
    EXPECT_EQ(large.format, 0U);
    EXPECT_EQ(large.name, "big");
    EXPECT_EQ(large.ticks, 77U);
    EXPECT_EQ(large.size, 10U);

    FxtWriter u = writer();
    u.userspace_object(0x1000, inline_thread(33, 0), inl("obj"), {arg_bool(inl("b"), true)});
    const auto obj = parsed<UserspaceObjectRecord>(u.bytes());
    EXPECT_EQ(obj.pointer, 0x1000U);
    EXPECT_EQ(obj.pid, 33U);
    EXPECT_EQ(obj.name, "obj");
    EXPECT_EQ(tables_.object(0x1000), "obj");

    FxtWriter k = writer();
    k.kernel_object(45, 2, inl("Main"), {arg_koid(inl("process"), 3)});
    const auto ko = parsed<KernelObjectRecord>(k.bytes());
    EXPECT_EQ(ko.koid, 45U);
    EXPECT_EQ(ko.object_type, 2U);
    ASSERT_NE(ko.args.find("process"), nullptr);
    EXPECT_EQ(ko.args.find("process")->u(), 3U);

    FxtWriter l = writer();
    l.log(99, inline_thread(5, 6), "hello log");
    const auto log = parsed<LogRecord>(l.bytes());
    EXPECT_EQ(log.ticks, 99U);
    EXPECT_EQ(log.thread, (ThreadKoids{5, 6}));
    EXPECT_EQ(log.message, "hello log");

    FxtWriter cs = writer();
    cs.context_switch(
        300, 3, 1000, 45, 87,
        {arg_i32(inl("incoming_weight"), 2), arg_i32(inl("outgoing_weight"), INT32_MIN)});
    const auto sw = parsed<ContextSwitchRecord>(cs.bytes());
    EXPECT_FALSE(sw.legacy);
    EXPECT_EQ(sw.cpu, 300U);
    EXPECT_EQ(sw.outgoing_state, 3U);
    EXPECT_EQ(sw.outgoing.tid, 45U);
    EXPECT_EQ(sw.incoming.tid, 87U);
    EXPECT_TRUE(sw.outgoing_idle);
    EXPECT_FALSE(sw.incoming_idle);

    FxtWriter lg = writer();
    lg.thread_record(2, 0, 0);
    lg.legacy_context_switch(1, 2, thr(2), inline_thread(7, 8), 0, 20, 50);
    const auto legacy = parsed<ContextSwitchRecord>(lg.bytes());
    EXPECT_TRUE(legacy.legacy);
    EXPECT_EQ(legacy.cpu, 1U);
    EXPECT_EQ(legacy.outgoing_state, 2U);
    EXPECT_TRUE(legacy.outgoing_idle);  // process 0 at priority 0
    EXPECT_EQ(legacy.incoming, (ThreadKoids{7, 8}));
    EXPECT_FALSE(legacy.incoming_idle);

    FxtWriter wk = writer();
    wk.thread_wakeup(2, 60, 87, {arg_i32(inl("weight"), 5)});
    const auto wake = parsed<ThreadWakeupRecord>(wk.bytes());
    EXPECT_EQ(wake.cpu, 2U);
    EXPECT_EQ(wake.tid, 87U);
}

// The reused SchedulingRecord of RecordParser::parse_scheduling: each record sets every field,
// so nothing of a legacy switch read before (its pids, its flag) shows through a newer one.
TEST_P(FxtParser, SchedulingRecordsReadIntoOneReusedRecord) {
    FxtWriter w = writer();
    w.legacy_context_switch(1, 2, inline_thread(5, 6), inline_thread(7, 8), 3, 4, 50);
    w.context_switch(300, 3, 1000, 45, 87, {arg_i32(inl("outgoing_weight"), INT32_MIN)});
    w.thread_wakeup(2, 60, 88, {arg_i32(inl("weight"), 5)});
    w.raw_record(8, 9ULL << 60, {1, 2, 3});
    const std::vector<std::uint8_t> bytes = w.take();
    Tokenizer t(bytes, endian());
    const RecordParser p(endian());
    SchedulingRecord s;
    std::vector<SchedulingRecord> got;
    std::vector<Error> errors;
    for (;;) {
        auto raw = t.next();
        if (!raw || !*raw) break;
        ASSERT_TRUE(RecordParser::is_scheduling(**raw));
        ASSERT_FALSE(RecordParser::is_event(**raw));
        Error failure;
        if (p.parse_scheduling(**raw, tables_, s, failure)) {
            got.push_back(s);
        } else {
            errors.push_back(std::move(failure));
        }
    }
    ASSERT_EQ(got.size(), 3U);
    EXPECT_EQ(got[0].type, SchedulingType::LegacyContextSwitch);
    EXPECT_TRUE(got[0].context_switch.legacy);
    EXPECT_EQ(got[0].context_switch.outgoing, (ThreadKoids{5, 6}));
    EXPECT_EQ(got[0].ticks(), 50U);

    EXPECT_EQ(got[1].type, SchedulingType::ContextSwitch);
    EXPECT_TRUE(got[1].is_switch());
    EXPECT_FALSE(got[1].context_switch.legacy);
    EXPECT_EQ(got[1].context_switch.outgoing, (ThreadKoids{0, 45}));  // no pid in this layout
    EXPECT_EQ(got[1].context_switch.incoming, (ThreadKoids{0, 87}));
    EXPECT_TRUE(got[1].context_switch.outgoing_idle);
    EXPECT_FALSE(got[1].context_switch.incoming_idle);
    EXPECT_EQ(got[1].ticks(), 1000U);

    EXPECT_EQ(got[2].type, SchedulingType::ThreadWakeup);
    EXPECT_FALSE(got[2].is_switch());
    EXPECT_EQ(got[2].wakeup.cpu, 2U);
    EXPECT_EQ(got[2].wakeup.tid, 88U);
    EXPECT_EQ(got[2].ticks(), 60U);

    ASSERT_EQ(errors.size(), 1U);  // sub-type 9
    EXPECT_EQ(errors[0].record, kind::kScheduling);
    EXPECT_EQ(s.type, SchedulingType::ThreadWakeup);  // a failed record leaves the type as it was
}

TEST_P(FxtParser, UnknownTypesAreErrorsNamedAfterTheRecord) {
    FxtWriter w = writer();
    w.raw_record(11, 0, {1, 2});
    auto r = last(w.bytes());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().record, kind::kUnknown);
    EXPECT_EQ(r.error().offset, std::optional<std::uint64_t>(0));

    FxtWriter e = writer();
    e.event(12, 1, inline_thread(1, 1), {}, {});
    r = last(e.bytes());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().record, kind::kEvent);

    FxtWriter s = writer();
    s.raw_record(8, 9ULL << 60, {1, 2, 3});
    r = last(s.bytes());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().record, kind::kScheduling);
}

TEST_P(FxtParser, FieldsPastTheRecordAreErrorsWithTheField) {
    FxtWriter w = writer();
    // An instant event whose header promises an inline thread but whose size holds only the
    // timestamp.
    w.raw_record(4, 0, {5});
    auto r = last(w.bytes());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().record, kind::kInstant);
    EXPECT_EQ(r.error().field, "thread");
    EXPECT_EQ(r.error().offset, std::optional<std::uint64_t>(16));

    // An argument whose size field says 0 words.
    FxtWriter b = writer();
    b.thread_record(1, 1, 1);
    b.raw_record(4, (1ULL << 20) | (1ULL << 24), {5, 0x0000000000000001ULL});
    r = last(b.bytes());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().field, "argument size");

    // An argument whose size runs past the record.
    FxtWriter c = writer();
    c.thread_record(1, 1, 1);
    c.raw_record(4, (1ULL << 20) | (1ULL << 24), {5, 0x0000000000000051ULL});
    r = last(c.bytes());
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("overruns"), std::string::npos);

    // Initialization with 0 ticks per second.
    FxtWriter i = writer();
    i.initialization(0);
    r = last(i.bytes());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().record, kind::kInitialization);
}

TEST_P(FxtParser, ArgumentsOfUnknownTypeAreSkippedBySize) {
    FxtWriter w = writer();
    w.thread_record(1, 1, 1);
    // Instant with 2 arguments: a type-13 argument of 2 words, then an int32 "x" = 7 whose
    // inline name is the stream "x" padded to a word (its first byte is 'x' in both orders).
    const std::uint64_t name_word = GetParam() ? 0x78ULL << 56 : 0x78ULL;
    w.raw_record(
        4, (2ULL << 20) | (1ULL << 24),
        {5, 0x000000000000002dULL, 0xffffffffffffffffULL, 0x0000000780010021ULL, name_word});
    const auto e = parsed<EventRecord>(w.bytes());
    ASSERT_EQ(e.args.count, 1U);
    EXPECT_EQ(e.args.items[0].name, "x");
    EXPECT_EQ(e.args.items[0].i(), 7);
}

INSTANTIATE_TEST_SUITE_P(ByteOrders, FxtParser, ::testing::Values(false, true),
                         [](const auto& p) { return p.param ? "BigEndian" : "LittleEndian"; });

}  // namespace
}  // namespace apcgate::collectors::fxt
