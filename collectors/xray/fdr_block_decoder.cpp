#include "collectors/xray/fdr_block_decoder.hpp"

#include <algorithm>
#include <array>

#include "collectors/xray/fdr_record_decode.hpp"
#include "collectors/xray/xray_problem.hpp"

namespace apcgate::collectors::xray {

Stat function_stat(std::uint8_t action) {
    switch (action) {
        case 0:
            return Stat::FunctionEnter;
        case 1:
            return Stat::FunctionExit;
        case 2:
            return Stat::FunctionTailExit;
        case 3:
            return Stat::FunctionEnterArgs;
        default:
            return Stat::Function;
    }
}

FdrBlockDecoder::FdrBlockDecoder(std::span<const std::uint8_t> input, const BlockRef& block,
                                 const FdrFormat& format, const std::string& input_name,
                                 FdrExpander& expander, Stats& stats, ingest::IngestReport& report)
    : tokenizer_(input.subspan(block.offset, block.size), block.offset, format, input_name),
      verifier_(format.version),
      expander_(expander),
      stats_(stats),
      report_(report),
      input_name_(input_name),
      cut_(block.cut) {}

bool FdrBlockDecoder::decode(CallBatch& out, std::size_t max) {
    while (!done_) {
        function_run(out, max);
        // A full batch still takes the arguments of its last entry: they belong to it.
        if (out.size() >= max && !next_is_argument()) break;
        if (argument(out) || custom_event(out)) continue;
        if (!one_record(out)) done_ = true;
    }
    return done_;
}

// The other shortcut: a whole CallArgument record where the verifier would use it (after an
// entry; one in a few records of a log with logged arguments) is read with one load from the
// bounds-checked rest instead of the tokenizer and a ByteReader, with the same statistics as
// one_record() and use(). Anything else goes the general way.
bool FdrBlockDecoder::argument(CallBatch& out) {
    const auto rest = tokenizer_.rest();
    const FdrFormat& f = tokenizer_.format();
    if (rest.size() < kMetadataRecordSize || !verifier_.after_entry() ||
        !is_metadata_byte(rest[0], f.bits) ||
        metadata_kind(rest[0], f.bits) != static_cast<std::uint8_t>(FdrKind::CallArgument))
        return false;
    stats_.read(Stat::CallArgument);
    if (!attach_argument(wire::load_u64(rest.data() + 1, f.endian), out))
        stats_.skipped(Stat::CallArgument);  // past kMaxCallArgs, as in use()
    tokenizer_.advance(kMetadataRecordSize);
    return true;
}

// A plain entry (action 0) followed by arguments is a function-enter-arg, as llvm-xray reads it
// and as the mapper shows and counts it: its read count moves over. The entry was counted in
// this decode() call (it stops only where no argument follows), so before any flush.
bool FdrBlockDecoder::attach_argument(std::uint64_t value, CallBatch& out) {
    const bool plain_entry = !out.empty() && out.back().kind == CallKind::Enter;
    if (!expander_.argument(value, out)) return false;
    if (plain_entry) stats_.reclassify_read(Stat::FunctionEnter, Stat::FunctionEnterArgs);
    return true;
}

bool FdrBlockDecoder::next_is_argument() const {
    const auto rest = tokenizer_.rest();
    const BitOrder bits = tokenizer_.format().bits;
    return !rest.empty() && is_metadata_byte(rest[0], bits) &&
           metadata_kind(rest[0], bits) == static_cast<std::uint8_t>(FdrKind::CallArgument);
}

// The shortcut: consecutive function records, checked against the unread bytes and written
// straight into the batch by the expander's loop for this log's layout.
void FdrBlockDecoder::function_run(CallBatch& out, std::size_t max) {
    if (!verifier_.timed() || out.size() >= max) return;
    const auto rest = tokenizer_.rest();
    const FdrFormat& f = tokenizer_.format();
    const std::size_t records = std::min(rest.size() / kFunctionRecordSize, max - out.size());
    CallEvent* dst = out.tail(records);
    FunctionRunTally tally;
    const bool swap = wire::needs_swap(f.endian);
    std::size_t k = 0;
    if (f.bits == BitOrder::LsbFirst) {
        k = swap
                ? expander_.function_run<BitOrder::LsbFirst, true>(rest.data(), records, dst, tally)
                : expander_.function_run<BitOrder::LsbFirst, false>(rest.data(), records, dst,
                                                                    tally);
    } else {
        k = swap
                ? expander_.function_run<BitOrder::MsbFirst, true>(rest.data(), records, dst, tally)
                : expander_.function_run<BitOrder::MsbFirst, false>(rest.data(), records, dst,
                                                                    tally);
    }
    if (k == 0) return;
    out.commit(k);
    verifier_.saw_function(tally.last_action == 0 || tally.last_action == 3);
    tokenizer_.advance(k * kFunctionRecordSize);
    for (std::uint8_t a = 0; a < 4; ++a) {
        if (tally.per_action[a] != 0) stats_.read(function_stat(a), tally.per_action[a]);
    }
}

// And for version 5's custom events (the runtime writes them whole; one in tens of records of a
// log that has them): a marker where the verifier would use it (timed), with a payload that fits
// in the buffer, read with two loads from the bounds-checked rest. Everything else, including
// every size the tokenizer would reject, goes the general way and gets its report there.
bool FdrBlockDecoder::custom_event(CallBatch& out) {
    const auto rest = tokenizer_.rest();
    const FdrFormat& f = tokenizer_.format();
    if (f.version < 5 || rest.size() < kMetadataRecordSize || !verifier_.timed() ||
        !is_metadata_byte(rest[0], f.bits) ||
        metadata_kind(rest[0], f.bits) != static_cast<std::uint8_t>(FdrKind::CustomEvent))
        return false;
    CustomEventRecord r;
    r.size = static_cast<std::int32_t>(wire::load_u32(rest.data() + 1, f.endian));
    if (r.size <= 0 || static_cast<std::uint64_t>(r.size) > rest.size() - kMetadataRecordSize)
        return false;
    r.has_delta = true;
    r.tsc_delta = static_cast<std::int32_t>(wire::load_u32(rest.data() + 5, f.endian));
    stats_.read(Stat::CustomEvent);
    verifier_.saw_function(false);  // what check() does with an event while timed: Body
    expander_.custom_event(r, tokenizer_.offset() + kMetadataRecordSize, out);
    tokenizer_.advance(kMetadataRecordSize + static_cast<std::size_t>(r.size));
    return true;
}

bool FdrBlockDecoder::one_record(CallBatch& out) {
    FdrToken t;
    switch (tokenizer_.next(t)) {
        case FdrTokenizer::Step::End:
            return false;
        case FdrTokenizer::Step::Error:
            framing_error();
            return false;
        case FdrTokenizer::Step::Token:
            break;
    }
    if (t.kind == FdrKind::TypedEvent) ++typed_events_;
    FunctionRecord f;
    if (t.kind == FdrKind::Function) f = decode_function(t.bytes.data(), tokenizer_.format());
    const Stat stat = t.kind == FdrKind::Function ? function_stat(f.action) : stat_of(t.kind);
    stats_.read(stat);
    switch (verifier_.check(t.kind, f.action)) {
        case FdrVerifier::Verdict::Use:
            use(t, f, out);
            return true;
        case FdrVerifier::Verdict::Skip:
            stats_.skipped(stat);
            report_.bad_record(problem(ErrorKind::Malformed, input_name_, t.offset, stat,
                                       std::string(verifier_.reason())));
            return true;
        case FdrVerifier::Verdict::EndBuffer:
            if (t.kind != FdrKind::EndOfBuffer || tokenizer_.format().version >= 2) {
                report_.bad_record(
                    problem(ErrorKind::Malformed, input_name_, t.offset, stat,
                            std::string(verifier_.reason()) + "; skipping the rest of the buffer"));
            }
            return false;
    }
    return false;
}

void FdrBlockDecoder::framing_error() {
    const std::uint64_t missing = tokenizer_.missing();
    const std::uint64_t typed = typed_events_ + (tokenizer_.missing_typed_event() ? 1 : 0);
    if (!cut_ && tokenizer_.error().is(ErrorKind::Truncated) &&
        missing <= kMetadataRecordSize * typed) {
        stats_.count(XrayStat::ShortBuffers);
        return;
    }
    report_.bad_record(tokenizer_.error());
}

bool FdrBlockDecoder::usable_cpu(const FdrToken& t, std::uint16_t cpu) {
    if (cpu < kCpuLimit) return true;
    report_.bad_record(problem(ErrorKind::Malformed, input_name_, t.offset, stat_of(t.kind),
                               "CPU " + std::to_string(cpu) + " is past any LLVM runtime's " +
                                   std::to_string(kCpuLimit) +
                                   " (it keeps a CPU in 8 bits): a corrupt field; the thread "
                                   "stays on the CPU it was on",
                               "cpu"));
    return false;
}

void FdrBlockDecoder::use(const FdrToken& t, const FunctionRecord& f, CallBatch& out) {
    const FdrFormat& fmt = tokenizer_.format();
    switch (t.kind) {
        case FdrKind::Function:
            expander_.function(f, out);
            break;
        case FdrKind::NewCpuId: {
            const NewCpuIdRecord r = decode_new_cpu_id(t, fmt);
            // The time base is still good: a flipped CPU must not shift the buffer's calls.
            if (usable_cpu(t, r.cpu)) {
                expander_.new_cpu(r);
            } else {
                expander_.tsc_wrap(TscWrapRecord{r.tsc});
            }
            break;
        }
        case FdrKind::TscWrap:
            expander_.tsc_wrap(decode_tsc_wrap(t, fmt));
            break;
        case FdrKind::CallArgument:
            if (!attach_argument(decode_call_argument(t, fmt).value, out)) {
                stats_.skipped(Stat::CallArgument);
            }
            break;
        case FdrKind::CustomEvent: {
            CustomEventRecord r = decode_custom_event(t, fmt);
            if (r.has_cpu && !usable_cpu(t, r.cpu)) r.has_cpu = false;  // on the thread's CPU
            expander_.custom_event(r, t.offset + kMetadataRecordSize, out);
            break;
        }
        case FdrKind::TypedEvent:
            expander_.typed_event(decode_typed_event(t, fmt), t.offset + kMetadataRecordSize, out);
            break;
        case FdrKind::NewBuffer:      // the thread is known from the index
        case FdrKind::WallClock:      // TSCs place events; the wall clock adds nothing to them
        case FdrKind::Pid:            // the index keyed the thread by it
        case FdrKind::EndOfBuffer:    // handled by the verifier
        case FdrKind::BufferExtents:  // handled by the index
            break;
    }
}

}  // namespace apcgate::collectors::xray
