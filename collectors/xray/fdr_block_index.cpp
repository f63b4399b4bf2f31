#include "collectors/xray/fdr_block_index.hpp"

#include <algorithm>
#include <optional>

#include "collectors/xray/fdr_record_decode.hpp"
#include "collectors/xray/fdr_tokenizer.hpp"
#include "collectors/xray/xray_problem.hpp"

namespace apcgate::collectors::xray {

namespace {

// Metadata records that open every buffer, at most: NewBuffer WallClock Pid NewCPUId.
constexpr int kPreambleRecords = 4;

bool is_kind(std::uint8_t byte, FdrKind kind, const FdrFormat& f) {
    return is_metadata_byte(byte, f.bits) &&
           metadata_kind(byte, f.bits) == static_cast<std::uint8_t>(kind);
}

// The first offset >= `from` where a metadata record of `first` is followed by one of `second`.
std::optional<std::size_t> find_pair(std::span<const std::uint8_t> data, std::size_t from,
                                     FdrKind first, FdrKind second, const FdrFormat& f) {
    for (std::size_t i = from; i + 2 * kMetadataRecordSize <= data.size(); ++i) {
        if (is_kind(data[i], first, f) && is_kind(data[i + kMetadataRecordSize], second, f))
            return i;
    }
    return std::nullopt;
}

// A WallClockTime in ns, or nullopt when it cannot be one: LLVM's runtime writes seconds and
// microseconds of CLOCK_MONOTONIC (a hostile or foreign writer's values place nothing).
std::optional<std::int64_t> wall_clock_ns(const WallClockRecord& w) {
    constexpr std::uint64_t kMaxSeconds = std::uint64_t{1} << 32;  // 136 years of uptime
    if (w.seconds >= kMaxSeconds || w.fraction >= 1'000'000) return std::nullopt;
    return static_cast<std::int64_t>(w.seconds) * 1'000'000'000 +
           static_cast<std::int64_t>(w.fraction) * 1'000;
}

class Indexer {
  public:
    Indexer(std::span<const std::uint8_t> data, const FdrFormat& f, const std::string& input,
            Stats& stats, ingest::IngestReport& report)
        : data_(data), format_(f), input_(input), stats_(stats), report_(report) {}

    // Indexes the buffer whose records are data[pos, pos + size); returns the bytes it used
    // (v1 without a buffer size: up to its EndOfBuffer record).
    std::size_t add_buffer(std::size_t pos, std::size_t size, bool stop_at_end_of_buffer);
    std::size_t extent_to_end_of_buffer(std::size_t pos, std::size_t size) const;
    void note_cpus(FdrTokenizer& tok);
    // A CPU past kCpuLimit is declared by no capture: the decoder reports its record.
    void note_cpu(std::uint32_t cpu) {
        if (cpu < kCpuLimit) index_.max_cpu = std::max(index_.max_cpu, cpu);
    }
    void v2_buffers();
    void v1_buffers(std::uint64_t stride);
    LogIndex take() { return std::move(index_); }

  private:
    std::span<const std::uint8_t> data_;
    FdrFormat format_;
    const std::string& input_;
    Stats& stats_;
    ingest::IngestReport& report_;
    LogIndex index_;
    bool file_cut_ = false;  // reading stopped because the file ends inside a buffer
};

// A thread moves to another CPU in mid-buffer: the runtime then writes a NewCPUId record among
// the function records (and a v4 custom event names its CPU), and the capture must declare that
// core too. Function records, most of a buffer, are stepped over a run at a time; the walk ends
// with the buffer, at a v1 buffer's end, or where the framing breaks (the decoding pass reports
// that).
void Indexer::note_cpus(FdrTokenizer& tok) {
    FdrToken t;
    for (;;) {
        const auto rest = tok.rest();
        std::size_t run = 0;
        while (run + kFunctionRecordSize <= rest.size() &&
               !is_metadata_byte(rest[run], format_.bits))
            run += kFunctionRecordSize;
        if (run != 0) tok.advance(run);
        if (tok.next(t) != FdrTokenizer::Step::Token) return;
        if (t.kind == FdrKind::NewCpuId) {
            note_cpu(decode_new_cpu_id(t, format_).cpu);
        } else if (t.kind == FdrKind::CustomEvent) {
            const CustomEventRecord c = decode_custom_event(t, format_);
            if (c.has_cpu) note_cpu(c.cpu);
        } else if (t.kind == FdrKind::NewBuffer || t.kind == FdrKind::EndOfBuffer) {
            return;
        }
    }
}

// v1 without a usable buffer size: a buffer ends after its EndOfBuffer record, before the next
// NewBuffer record, or (at a framing error) before the next NewBuffer + WallClockTime pair, so
// that the decoding pass meets and reports the error.
std::size_t Indexer::extent_to_end_of_buffer(std::size_t pos, std::size_t size) const {
    const std::size_t first = pos + kMetadataRecordSize;
    FdrTokenizer tok(data_.subspan(first, size - kMetadataRecordSize), first, format_, input_);
    FdrToken r;
    for (;;) {
        const auto step = tok.next(r);
        if (step == FdrTokenizer::Step::End) return size;
        if (step == FdrTokenizer::Step::Error) {
            const auto next =
                find_pair(data_, tok.offset() + 1, FdrKind::NewBuffer, FdrKind::WallClock, format_);
            return std::min(size, (next ? *next : data_.size()) - pos);
        }
        if (r.kind == FdrKind::NewBuffer) return r.offset - pos;
        if (r.kind == FdrKind::EndOfBuffer) return r.offset + kMetadataRecordSize - pos;
    }
}

std::size_t Indexer::add_buffer(std::size_t pos, std::size_t size, bool stop_at_end_of_buffer) {
    FdrTokenizer tok(data_.subspan(pos, size), pos, format_, input_);
    FdrToken t;
    if (tok.next(t) != FdrTokenizer::Step::Token || t.kind != FdrKind::NewBuffer) {
        report_.bad_record(problem(ErrorKind::Malformed, input_, pos, Stat::NewBuffer,
                                   "a buffer must start with a NewBuffer record; skipping it"));
        stats_.skipped(Stat::Block);
        return size;
    }
    const std::int32_t tid = decode_new_buffer(t, format_).tid;
    std::int32_t pid = 0;
    bool pid_known = false;
    std::optional<std::uint64_t> first_tsc;
    std::optional<std::int64_t> wall_ns;  // the preamble's WallClockTime, when it is sane
    bool tsc_from_cpu = false;            // the time base came with the CPU, beside the wall clock
    // The time base is normally the fourth record; a malformed buffer may have it later (the
    // decoding pass reports what comes before it), so look on until one is found.
    for (int i = 1; !first_tsc && tok.next(t) == FdrTokenizer::Step::Token; ++i) {
        if (t.kind == FdrKind::Pid && i < kPreambleRecords) {
            pid = decode_pid(t, format_).pid;
            pid_known = true;
        } else if (t.kind == FdrKind::WallClock && i < kPreambleRecords) {
            wall_ns = wall_clock_ns(decode_wall_clock(t, format_));
        } else if (t.kind == FdrKind::NewCpuId) {
            const NewCpuIdRecord cpu = decode_new_cpu_id(t, format_);
            first_tsc = cpu.tsc;
            tsc_from_cpu = true;
            note_cpu(cpu.cpu);
        } else if (t.kind == FdrKind::TscWrap) {
            first_tsc = decode_tsc_wrap(t, format_).tsc;
        } else if (t.kind == FdrKind::NewBuffer || t.kind == FdrKind::EndOfBuffer) {
            break;
        }
    }
    if (first_tsc) note_cpus(tok);
    const std::size_t used = stop_at_end_of_buffer ? extent_to_end_of_buffer(pos, size) : size;
    if (!first_tsc) {
        // A buffer with nothing after its preamble is a thread that logged nothing yet.
        stats_.skipped(Stat::Block);
        return used;
    }
    const auto thread = index_.thread_for(pid, pid_known, tid);
    if (!thread) {
        report_.bad_record(problem(ErrorKind::Limit, input_, pos, Stat::NewBuffer,
                                   "more than " + std::to_string(kMaxThreads) +
                                       " threads; skipping the buffers of thread " +
                                       std::to_string(tid),
                                   "tid"));
        stats_.skipped(Stat::Block);
        return used;
    }
    // The buffer the file ends in lost its end: its decoder must not take a record cut there
    // for LLVM 14's short extents (fdr_block_decoder.hpp).
    const bool cut = file_cut_ && pos + used >= data_.size();
    index_.add_block(BlockRef{pos, used, *first_tsc, *thread, cut});
    if (wall_ns && tsc_from_cpu) index_.add_wall_stamp(WallStamp{*first_tsc, *wall_ns});
    stats_.read(Stat::Block);
    return used;
}

void Indexer::v2_buffers() {
    std::size_t pos = kFileHeaderSize;
    while (pos < data_.size()) {
        const std::size_t left = data_.size() - pos;
        if (left < kMetadataRecordSize || !is_kind(data_[pos], FdrKind::BufferExtents, format_)) {
            const auto next =
                find_pair(data_, pos + 1, FdrKind::BufferExtents, FdrKind::NewBuffer, format_);
            const std::string what =
                left < kMetadataRecordSize
                    ? "partial record: " + std::to_string(left) + " of 16 bytes"
                    : "expected a BufferExtents record to start a buffer";
            if (!next) {
                report_.stopped(problem(
                    left < kMetadataRecordSize ? ErrorKind::Truncated : ErrorKind::Malformed,
                    input_, pos, Stat::BufferExtents,
                    what + "; no further buffer in the last " + std::to_string(left) + " bytes"));
                return;
            }
            report_.bad_record(problem(
                ErrorKind::Malformed, input_, pos, Stat::BufferExtents,
                what + "; skipped " + std::to_string(*next - pos) + " bytes to the next buffer"));
            pos = *next;
        }
        FdrToken t{FdrKind::BufferExtents, pos, data_.subspan(pos, kMetadataRecordSize), {}};
        const std::uint64_t size = decode_buffer_extents(t, format_).size;
        stats_.read(Stat::BufferExtents);
        const std::size_t start = pos + kMetadataRecordSize;
        const std::size_t room = data_.size() - start;
        if (size > room) {
            file_cut_ = true;
            report_.stopped(problem(ErrorKind::Truncated, input_, pos, Stat::BufferExtents,
                                    "the buffer holds " + std::to_string(size) +
                                        " bytes but the file ends " + std::to_string(room) +
                                        " bytes after it: the log is cut short",
                                    "size"));
            if (room > 0) add_buffer(start, room, false);
            return;
        }
        if (size > 0) add_buffer(start, static_cast<std::size_t>(size), false);
        pos = start + static_cast<std::size_t>(size);
    }
}

void Indexer::v1_buffers(std::uint64_t stride) {
    const std::size_t body = data_.size() - kFileHeaderSize;
    if (stride >= 3 * kMetadataRecordSize && stride <= body) {
        for (std::size_t pos = kFileHeaderSize; pos < data_.size(); pos += stride) {
            const std::size_t size = std::min<std::size_t>(stride, data_.size() - pos);
            if (size < stride) {
                file_cut_ = true;
                report_.stopped(problem(ErrorKind::Truncated, input_, pos, Stat::NewBuffer,
                                        "the last buffer is cut short: " + std::to_string(size) +
                                            " of " + std::to_string(stride) +
                                            " bytes (the header's buffer_size)"));
            }
            add_buffer(pos, size, false);
        }
        return;
    }
    if (body > 0 && stride >= 3 * kMetadataRecordSize) {
        // A version 1 writer writes every buffer whole, junk after its EndOfBuffer included, so
        // a file shorter than one buffer was cut (or its buffer_size is wrong): either way it
        // is not all there. What it holds is still read, buffer by buffer.
        file_cut_ = true;
        report_.stopped(problem(ErrorKind::Truncated, input_, kFileHeaderSize, Stat::NewBuffer,
                                "the first buffer is cut short: " + std::to_string(body) + " of " +
                                    std::to_string(stride) +
                                    " bytes (the header's buffer_size); finding its records by "
                                    "their NewBuffer records"));
    } else if (body > 0) {
        report_.bad_record(
            problem(ErrorKind::Malformed, input_, 16, Stat::FileHeader,
                    "buffer_size " + std::to_string(stride) +
                        " does not fit the file; finding buffers by their NewBuffer records",
                    "buffer_size"));
    }
    std::size_t pos = kFileHeaderSize;
    while (pos < data_.size()) {
        const auto start = find_pair(data_, pos, FdrKind::NewBuffer, FdrKind::WallClock, format_);
        if (!start) return;
        pos = *start + add_buffer(*start, data_.size() - *start, true);
    }
}

}  // namespace

FdrFormat fdr_format(const FileHeader& header, std::span<const std::uint8_t> data) {
    FdrFormat f;
    f.version = header.version;
    f.endian = header.endian;
    f.bits = BitOrder::LsbFirst;
    if (header.endian == wire::Endian::Big && data.size() > kFileHeaderSize) {
        const std::uint8_t first = data[kFileHeaderSize];
        const bool msb_opening =
            (first & 0x80U) != 0 && ((first & 0x7FU) == 0 || (first & 0x7FU) == 7);
        const bool lsb_opening = (first & 0x01U) != 0 && ((first >> 1) == 0 || (first >> 1) == 7);
        if (msb_opening && !lsb_opening) f.bits = BitOrder::MsbFirst;
    }
    return f;
}

LogIndex index_fdr(std::span<const std::uint8_t> data, const FdrFormat& format,
                   std::uint64_t v1_buffer_size, const std::string& input, Stats& stats,
                   ingest::IngestReport& report) {
    Indexer indexer(data, format, input, stats, report);
    if (data.size() > kFileHeaderSize) {
        if (format.version >= 2) {
            indexer.v2_buffers();
        } else {
            indexer.v1_buffers(v1_buffer_size);
        }
    }
    LogIndex index = indexer.take();
    index.sort_blocks_by_time();
    return index;
}

}  // namespace apcgate::collectors::xray
