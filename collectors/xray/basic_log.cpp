#include "collectors/xray/basic_log.hpp"

#include <algorithm>

#include "collectors/xray/basic_records.hpp"
#include "collectors/xray/fdr_block_decoder.hpp"
#include "collectors/xray/xray_problem.hpp"

namespace apcgate::collectors::xray {

namespace {

struct RunKey {
    std::uint32_t tid = 0;
    std::uint32_t pid = 0;
    bool operator==(const RunKey&) const = default;
};

// The thread a record belongs to; nullopt for a record type no writer uses.
std::optional<RunKey> key_of(const std::uint8_t* p, wire::Endian e) {
    switch (basic_record_type(p, e)) {
        case static_cast<std::uint16_t>(BasicRecordType::Normal): {
            const BasicRecord r = decode_basic_record(p, e);
            return RunKey{r.tid, r.pid};
        }
        case static_cast<std::uint16_t>(BasicRecordType::ArgPayload): {
            const BasicArgRecord r = decode_basic_arg(p, e);
            return RunKey{r.tid, r.pid};
        }
        default:
            return std::nullopt;
    }
}

}  // namespace

LogIndex index_basic(std::span<const std::uint8_t> data, const FileHeader& header,
                     const std::string& input, Stats& stats, ingest::IngestReport& report) {
    LogIndex index;
    if (data.size() <= kFileHeaderSize) return index;
    const std::size_t body = data.size() - kFileHeaderSize;
    const std::size_t count = body / kBasicRecordSize;
    wire::ByteReader reader(data, header.endian, 0, input);
    reader.seek(kFileHeaderSize);
    const auto records = reader.bytes(count * kBasicRecordSize, "records");
    const bool pid_known = header.version >= 3;

    std::optional<RunKey> run;
    std::size_t run_start = 0;
    std::optional<std::uint64_t> run_tsc;
    auto close_run = [&](std::size_t end) {
        if (!run || end == run_start) return;
        const std::uint64_t offset = kFileHeaderSize + run_start * kBasicRecordSize;
        if (!run_tsc) {
            report.bad_record(problem(ErrorKind::Malformed, input, offset, Stat::BasicArgPayload,
                                      "records of thread " + std::to_string(run->tid) +
                                          " without a function record before them; skipped"));
            stats.skipped(Stat::Block);
            return;
        }
        const auto thread = index.thread_for(static_cast<std::int32_t>(run->pid), pid_known,
                                             static_cast<std::int32_t>(run->tid));
        if (!thread) {
            report.bad_record(
                problem(ErrorKind::Limit, input, offset, Stat::Block,
                        "more than " + std::to_string(kMaxThreads) + " threads; skipped"));
            stats.skipped(Stat::Block);
            return;
        }
        index.add_block(BlockRef{offset, (end - run_start) * kBasicRecordSize, *run_tsc, *thread});
        stats.read(Stat::Block);
    };
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint8_t* p = records.data() + i * kBasicRecordSize;
        auto key = key_of(p, header.endian);
        if (key && !pid_known) key->pid = 0;
        // A record of an unknown type stays in the run around it; its decoder reports it.
        if (basic_record_type(p, header.endian) == 0)
            index.max_cpu =
                std::max<std::uint32_t>(index.max_cpu, decode_basic_record(p, header.endian).cpu);
        if (!key || (run && *key == *run)) {
            if (!run_tsc && basic_record_type(p, header.endian) == 0)
                run_tsc = decode_basic_record(p, header.endian).tsc;
            continue;
        }
        close_run(i);
        run = key;
        run_start = i;
        run_tsc.reset();
        if (basic_record_type(p, header.endian) == 0)
            run_tsc = decode_basic_record(p, header.endian).tsc;
    }
    close_run(count);
    if (body % kBasicRecordSize != 0) {
        report.stopped(problem(ErrorKind::Truncated, input,
                               kFileHeaderSize + count * kBasicRecordSize, Stat::BasicRecord,
                               "partial record: " + std::to_string(body % kBasicRecordSize) +
                                   " of 32 bytes at the end: the log is cut short"));
    }
    return index;
}

BasicBlockDecoder::BasicBlockDecoder(std::span<const std::uint8_t> input, const BlockRef& block,
                                     const FileHeader& header, const std::string& input_name,
                                     ThreadClock& clock, Stats& stats, ingest::IngestReport& report)
    : reader_(input.subspan(block.offset, block.size), header.endian, block.offset, input_name),
      endian_(header.endian),
      version_(header.version),
      input_name_(input_name),
      clock_(clock),
      stats_(stats),
      report_(report) {}

bool BasicBlockDecoder::next_is_argument() const {
    const auto rest = reader_.rest();
    return rest.size() >= kBasicRecordSize &&
           basic_record_type(rest.data(), endian_) ==
               static_cast<std::uint16_t>(BasicRecordType::ArgPayload);
}

bool BasicBlockDecoder::decode(CallBatch& out, std::size_t max) {
    while (reader_.remaining() >= kBasicRecordSize) {
        if (out.size() >= max && !next_is_argument()) return false;
        const std::uint64_t offset = reader_.offset();
        const auto bytes = reader_.bytes(kBasicRecordSize, "record");
        switch (basic_record_type(bytes.data(), endian_)) {
            case static_cast<std::uint16_t>(BasicRecordType::Normal):
                record(bytes, offset, out);
                break;
            case static_cast<std::uint16_t>(BasicRecordType::ArgPayload):
                argument(bytes, offset, out);
                break;
            default:
                stats_.read(Stat::BasicRecord);
                stats_.skipped(Stat::BasicRecord);
                report_.bad_record(
                    problem(ErrorKind::Malformed, input_name_, offset, Stat::BasicRecord,
                            "unknown record type " +
                                std::to_string(basic_record_type(bytes.data(), endian_)),
                            "record_type"));
                entry_open_ = false;
        }
    }
    return true;
}

void BasicBlockDecoder::record(std::span<const std::uint8_t> bytes, std::uint64_t offset,
                               CallBatch& out) {
    static constexpr CallKind kKinds[4] = {CallKind::Enter, CallKind::Exit, CallKind::TailExit,
                                           CallKind::EnterArgs};
    const BasicRecord r = decode_basic_record(bytes.data(), endian_);
    const Stat stat = function_stat(r.action);
    stats_.read(stat);
    entry_open_ = false;
    if (r.action > 3) {
        stats_.skipped(stat);
        report_.bad_record(problem(ErrorKind::Malformed, input_name_, offset, stat,
                                   "unknown function action " + std::to_string(r.action), "type"));
        return;
    }
    CallEvent e{};
    e.tsc = r.tsc;
    e.ns = clock_.stamp(r.tsc);
    e.function = static_cast<std::uint32_t>(r.function);
    e.cpu = r.cpu;
    e.kind = kKinds[r.action];
    out.push(e);
    entry_open_ = true;
    entry_function_ = r.function;
    entry_tid_ = r.tid;
    entry_pid_ = r.pid;
}

void BasicBlockDecoder::argument(std::span<const std::uint8_t> bytes, std::uint64_t offset,
                                 CallBatch& out) {
    const BasicArgRecord a = decode_basic_arg(bytes.data(), endian_);
    stats_.read(Stat::BasicArgPayload);
    const bool matches = entry_open_ && !out.empty() && a.function == entry_function_ &&
                         a.tid == entry_tid_ && (version_ < 3 || a.pid == entry_pid_);
    if (!matches) {
        stats_.skipped(Stat::BasicArgPayload);
        report_.bad_record(
            problem(ErrorKind::Malformed, input_name_, offset, Stat::BasicArgPayload,
                    "an argument that does not follow a record of the same function and thread"));
        return;
    }
    // The payload carries one call argument: counted as such, as FDR's CallArgument records are,
    // and shown (or skipped) with its call by the mapper.
    stats_.read(Stat::CallArgument);
    CallEvent& e = out.back();
    if (e.arg_count >= kMaxCallArgs) {
        stats_.skipped(Stat::BasicArgPayload);
        stats_.skipped(Stat::CallArgument);
        return;
    }
    if (e.arg_count == 0) e.first_arg = static_cast<std::uint32_t>(out.args.size());
    out.args.push_back(a.argument);
    ++e.arg_count;
}

}  // namespace apcgate::collectors::xray
