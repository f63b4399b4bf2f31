// The tokenizer, the record parser and the ring copy on hand-built records: every record kind
// the collector reads, a record that wraps the ring's end, and hostile bytes (bad sizes, unknown
// event ids, callchains that do not fit) reported with offset, record kind and field while
// everything decoded before them is kept.
#include <gtest/gtest.h>

#include <cstring>

#include "collectors/perf/record_parser.hpp"
#include "collectors/perf/record_tokenizer.hpp"
#include "collectors/perf/ring_buffer.hpp"
#include "record_bytes.hpp"

namespace apcgate::collectors::perf {
namespace {

using testing::Bytes;
using testing::record;
using testing::sample_id;

constexpr std::uint64_t kSbId = 11, kTpId = 12, kSmpId = 13;

LayoutTable layouts() {
    LayoutTable t;
    EXPECT_TRUE(t.add(kSbId, testing::kSideband));
    EXPECT_TRUE(t.add(kTpId, testing::kTracepoint));
    EXPECT_TRUE(t.add(kSmpId, testing::kSampler));
    return t;
}

std::vector<std::uint8_t> comm_record(std::uint32_t pid, std::uint32_t tid, const std::string& comm,
                                      bool exec, std::uint64_t time) {
    Bytes b;
    b.u32(pid).u32(tid).cstr(comm);
    sample_id(b, pid, tid, time, 1, kSbId);
    return record(3, exec ? kMiscCommExec : 0, b);
}

std::vector<std::uint8_t> sample_record(std::uint64_t time,
                                        const std::vector<std::uint64_t>& chain) {
    Bytes b;
    b.u64(kSmpId).u64(0x401234).u32(100).u32(101).u64(time).u32(1).u32(0).u64(1000);
    b.u64(chain.size());
    for (auto ip : chain) b.u64(ip);
    return record(9, kMiscUser, b);
}

std::vector<PerfRecord> decode_all(const std::vector<std::uint8_t>& bytes,
                                   std::vector<Error>& errors, const LayoutTable& t) {
    std::vector<PerfRecord> out;
    RecordParser parser(t);
    RecordTokenizer tok(bytes, 4096);
    while (auto raw = tok.next()) {
        auto r = parser.parse(*raw, "test ring");
        if (r)
            out.push_back(std::move(r).value());
        else
            errors.push_back(r.error());
    }
    if (tok.error()) errors.push_back(*tok.error());
    return out;
}

TEST(RecordParser, DecodesEveryKindTheCollectorReads) {
    const LayoutTable t = layouts();
    Bytes all;
    all.append(comm_record(100, 100, "burner", true, 5000));
    {  // MMAP2
        Bytes b;
        b.u32(100).u32(100).u64(0x400000).u64(0x2000).u64(0x1000);
        b.u32(8).u32(1).u64(1234).u64(0);  // maj, min, ino, ino_generation
        b.u32(5).u32(2).cstr("/usr/bin/workload");
        sample_id(b, 100, 100, 5001, 1, kSbId);
        all.append(record(10, 0, b));
    }
    {  // FORK then EXIT
        Bytes f;
        f.u32(100).u32(100).u32(102).u32(101).u64(5002);
        sample_id(f, 100, 101, 5002, 0, kSbId);
        all.append(record(7, 0, f));
        Bytes e;
        e.u32(100).u32(100).u32(102).u32(102).u64(5003);
        sample_id(e, 100, 102, 5003, 0, kSbId);
        all.append(record(4, 0, e));
    }
    {  // LOST
        Bytes b;
        b.u64(kSbId).u64(77);
        sample_id(b, 0, 0, 5004, 1, kSbId);
        all.append(record(2, 0, b));
    }
    {  // SWITCH_CPU_WIDE, out and preempted
        Bytes b;
        b.u32(200).u32(201);
        sample_id(b, 100, 101, 5005, 1, kSbId);
        all.append(record(15, kMiscSwitchOut | kMiscSwitchOutPreempt, b));
    }
    {  // tracepoint sample with a raw payload
        Bytes b;
        const auto raw = testing::sched_switch_payload("a", 1, 1, "b", 2);
        b.u64(kTpId).u32(1).u32(1).u64(5006).u32(0).u32(0).u32(
            static_cast<std::uint32_t>(raw.size()));
        b.append(raw);
        while ((b.size() + 8) % 8 != 0) b.u8(0);
        all.append(record(9, kMiscKernel, b));
    }
    all.append(sample_record(5007, {static_cast<std::uint64_t>(-512), 0x401234, 0x401500}));

    std::vector<Error> errors;
    const auto recs = decode_all(all.bytes(), errors, t);
    ASSERT_TRUE(errors.empty()) << errors.front().to_string();
    ASSERT_EQ(recs.size(), 8U);

    const auto& comm = std::get<CommRecord>(recs[0]);
    EXPECT_EQ(comm.comm, "burner");
    EXPECT_TRUE(comm.exec);
    EXPECT_EQ(comm.sid.time, 5000U);
    EXPECT_EQ(comm.sid.cpu, 1);
    const auto& mm = std::get<Mmap2Record>(recs[1]);
    EXPECT_EQ(mm.filename, "/usr/bin/workload");
    EXPECT_EQ(mm.addr, 0x400000U);
    EXPECT_EQ(mm.pgoff, 0x1000U);
    EXPECT_EQ(mm.prot, 5U);
    const auto& fork = std::get<TaskRecord>(recs[2]);
    EXPECT_TRUE(fork.fork);
    EXPECT_EQ(fork.tid, 102U);
    EXPECT_EQ(fork.ptid, 101U);
    EXPECT_FALSE(std::get<TaskRecord>(recs[3]).fork);
    EXPECT_EQ(std::get<LostRecord>(recs[4]).lost, 77U);
    const auto& sw = std::get<SwitchRecord>(recs[5]);
    EXPECT_TRUE(sw.cpu_wide && sw.out && sw.preempted);
    EXPECT_EQ(sw.next_prev_tid, 201);
    const auto& tp = std::get<SampleRecord>(recs[6]);
    EXPECT_EQ(tp.sid.id, kTpId);
    EXPECT_EQ(tp.raw.size(), testing::sched_switch_payload("a", 1, 1, "b", 2).size());
    const auto& smp = std::get<SampleRecord>(recs[7]);
    EXPECT_EQ(smp.ip, 0x401234U);
    EXPECT_EQ(smp.sid.pid, 100);
    EXPECT_EQ(smp.sid.tid, 101);
    EXPECT_EQ(smp.period, 1000U);
    ASSERT_EQ(smp.callchain.size(), 3U);
    EXPECT_EQ(smp.callchain[2], 0x401500U);
}

TEST(RecordParser, UnknownEventIdIsABadRecordAndTheRestIsKept) {
    const LayoutTable t = layouts();
    Bytes all;
    all.append(comm_record(1, 1, "first", false, 1));
    Bytes b;
    b.u32(1).u32(1).cstr("x");
    sample_id(b, 1, 1, 2, 0, 999);  // an id no event has
    all.append(record(3, 0, b));
    all.append(comm_record(1, 1, "third", false, 3));
    std::vector<Error> errors;
    const auto recs = decode_all(all.bytes(), errors, t);
    ASSERT_EQ(recs.size(), 2U);
    EXPECT_EQ(std::get<CommRecord>(recs[1]).comm, "third");
    ASSERT_EQ(errors.size(), 1U);
    EXPECT_EQ(errors[0].record, "COMM");
    EXPECT_EQ(errors[0].field, "sample_id.identifier");
    EXPECT_NE(errors[0].message.find("999"), std::string::npos);
    EXPECT_EQ(errors[0].input, "test ring");
}

TEST(RecordParser, CallchainLongerThanItsRecordIsRejectedWithItsOffset) {
    const LayoutTable t = layouts();
    Bytes b;
    b.u64(kSmpId).u64(1).u32(1).u32(1).u64(9).u32(0).u32(0).u64(1);
    b.u64(1000);  // nr, but no entries follow
    const auto bytes = record(9, 0, b);
    std::vector<Error> errors;
    EXPECT_TRUE(decode_all(bytes, errors, t).empty());
    ASSERT_EQ(errors.size(), 1U);
    EXPECT_EQ(errors[0].record, "SAMPLE");
    EXPECT_EQ(errors[0].field, "callchain.nr");
    ASSERT_TRUE(errors[0].offset);
    EXPECT_EQ(*errors[0].offset, 4096U + 8 + 48 + 8);  // after header, fields and nr
    EXPECT_EQ(errors[0].kind, ErrorKind::Malformed);   // the record is whole: nr is wrong
}

TEST(RecordParser, CommWithoutTerminatorIsRejected) {
    const LayoutTable t = layouts();
    Bytes b;
    b.u32(1).u32(1).u64(0x4141414141414141ull);  // "AAAAAAAA", no NUL
    sample_id(b, 1, 1, 2, 0, kSbId);
    std::vector<Error> errors;
    EXPECT_TRUE(decode_all(record(3, 0, b), errors, t).empty());
    ASSERT_EQ(errors.size(), 1U);
    EXPECT_EQ(errors[0].field, "comm");
    EXPECT_EQ(errors[0].kind, ErrorKind::Malformed);
}

TEST(RecordTokenizer, StopsAtASizeBelowTheHeaderKeepingWhatCameBefore) {
    Bytes all;
    all.append(comm_record(1, 1, "ok", false, 1));
    const std::size_t bad_at = all.size();
    all.u32(3).u16(0).u16(4);  // size 4 < 8
    all.append(comm_record(1, 1, "unreachable", false, 2));
    RecordTokenizer tok(all.bytes(), 100);
    int n = 0;
    while (tok.next()) ++n;
    EXPECT_EQ(n, 1);
    ASSERT_TRUE(tok.error());
    EXPECT_EQ(tok.error()->offset, 100 + bad_at + 8);
    EXPECT_EQ(tok.error()->record, "perf_event_header");
    EXPECT_EQ(tok.error()->field, "size");
    EXPECT_EQ(tok.error()->kind, ErrorKind::Malformed);
}

TEST(RecordTokenizer, SizePastTheEndIsAnError) {
    Bytes all;
    all.u32(9).u16(0).u16(64).u64(1);  // claims 64 bytes, has 16
    RecordTokenizer tok(all.bytes(), 0);
    EXPECT_FALSE(tok.next());
    ASSERT_TRUE(tok.error());
    EXPECT_NE(tok.error()->message.find("past"), std::string::npos);
    EXPECT_EQ(tok.error()->kind, ErrorKind::Truncated);
}

TEST(LayoutTable, RejectsLayoutsItCannotParse) {
    LayoutTable t;
    EXPECT_FALSE(t.add(1, kSampleTid | kSampleTime));        // no IDENTIFIER
    EXPECT_FALSE(t.add(2, testing::kSideband | (1u << 4)));  // PERF_SAMPLE_READ
    EXPECT_TRUE(t.add(3, testing::kSideband));
    EXPECT_EQ(t.size(), 1U);
}

// A 64-byte ring whose tail sits 24 bytes before the end: the 56-byte record written there
// continues at the start of the data area.
TEST(RingCopy, ARecordThatWrapsTheRingsEndDecodesWhole) {
    const LayoutTable t = layouts();
    const auto rec = comm_record(42, 43, "wrapped", false, 777);
    ASSERT_EQ(rec.size(), 56U);
    std::vector<std::uint8_t> ring(64, 0xee);
    const std::uint64_t tail = 3 * 64 + 40;  // positions only grow: the ring went round 3 times
    for (std::size_t i = 0; i < rec.size(); ++i) ring[(tail + i) % 64] = rec[i];
    const std::uint64_t head = tail + rec.size();

    std::vector<std::uint8_t> linear;
    ASSERT_TRUE(copy_ring(ring, tail, head, linear));
    ASSERT_EQ(linear, rec);
    std::vector<Error> errors;
    RecordParser parser(t);
    RecordTokenizer tok(linear, tail);
    auto raw = tok.next();
    ASSERT_TRUE(raw);
    EXPECT_EQ(raw->offset, tail);
    auto r = parser.parse(*raw, "ring");
    ASSERT_TRUE(r) << r.error().to_string();
    const auto& c = std::get<CommRecord>(*r);
    EXPECT_EQ(c.comm, "wrapped");
    EXPECT_EQ(c.tid, 43U);
    EXPECT_EQ(c.sid.time, 777U);
}

TEST(RingCopy, HeadOutsideTheRingIsRejectedAndNothingCopied) {
    std::vector<std::uint8_t> ring(64), out;
    EXPECT_FALSE(copy_ring(ring, 100, 100 + 65, out));                  // more than one ring ahead
    EXPECT_FALSE(copy_ring(ring, 100, 99, out));                        // behind the tail
    EXPECT_FALSE(copy_ring(std::vector<std::uint8_t>(60), 0, 8, out));  // not a power of two
    EXPECT_TRUE(out.empty());
    EXPECT_TRUE(copy_ring(ring, 5, 5, out));
    EXPECT_TRUE(out.empty());
}

// Records of 16, 24 and 32 bytes laid in a 64-byte ring from position `tail`; the second
// record's size field straddles the area's end when tail sits at 58.
std::vector<std::uint8_t> ring_with_records(std::uint64_t tail, std::initializer_list<int> sizes) {
    std::vector<std::uint8_t> ring(64, 0);
    std::uint64_t at = tail;
    for (const int size : sizes) {
        std::uint8_t header[8] = {9, 0, 0, 0, 0, 0, 0, 0};
        const auto n = static_cast<std::uint16_t>(size);
        std::memcpy(header + 6, &n, sizeof n);
        for (std::uint64_t i = 0; i < 8; ++i) ring[(at + i) % 64] = header[i];
        at += static_cast<std::uint64_t>(size);
    }
    return ring;
}

TEST(RingChunks, AChunkEndsAtTheLastWholeRecordThatFits) {
    const std::uint64_t tail = 5 * 64 + 8;
    const auto ring = ring_with_records(tail, {16, 24, 16});
    const std::uint64_t head = tail + 56;
    EXPECT_EQ(whole_records_end(ring, tail, head, 56), head);       // everything fits
    EXPECT_EQ(whole_records_end(ring, tail, head, 40), tail + 40);  // two records
    EXPECT_EQ(whole_records_end(ring, tail, head, 39), tail + 16);  // the second does not fit
    EXPECT_EQ(whole_records_end(ring, tail, head, 8), tail + 16);   // one record at least
}

TEST(RingChunks, ASizeFieldThatWrapsTheAreaIsReadWhole) {
    // The second header starts at position 58 (mod 64): its size is at bytes 0 and 1.
    const std::uint64_t tail = 64 + 42;
    const auto ring = ring_with_records(tail, {16, 24, 16});
    EXPECT_EQ(whole_records_end(ring, tail, tail + 56, 40), tail + 40);
    EXPECT_EQ(whole_records_end(ring, tail, tail + 56, 39), tail + 16);
}

TEST(RingChunks, AMalformedSizeGivesTheWholeRestToTheTokenizer) {
    const std::uint64_t tail = 0;
    auto ring = ring_with_records(tail, {16, 4, 16});  // a size below the header's
    EXPECT_EQ(whole_records_end(ring, tail, 48, 20), 48U);
    ring = ring_with_records(tail, {16, 40});  // past the head
    EXPECT_EQ(whole_records_end(ring, tail, 40, 20), 40U);
}

}  // namespace
}  // namespace apcgate::collectors::perf
