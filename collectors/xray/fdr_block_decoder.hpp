// Reads one FDR buffer into CallEvents, a batch at a time: the tokenizer frames each record, the
// verifier rules on it, the record is decoded into its type and the thread's expander turns it
// into events. Runs of function records (most of a log) take a shortcut through the same
// steps without the per-record dispatch, and so do whole CallArgument records after an entry and
// version 5 custom events (which break those runs every few tens of records in a real log). A
// framing error (a partial record at the end of the buffer, an unknown record kind) is reported
// and ends this buffer; everything before it is kept and the next buffer is read normally.
//
// But for one producer's quirk, which is no damage: LLVM 14's runtime adds only a typed event's
// payload to its buffer's extents (FDRLogWriter::writeTypedEvent), not its 16-byte marker, and
// writes the buffer to the file up to its extents. A buffer with T typed events then ends 16 * T
// bytes before its records do, most often inside a record. A record cut at the end of a buffer
// that holds typed events, missing no more than 16 bytes per typed event, is that: the buffer is
// counted as xray_short_buffers, not reported as a problem (the source notes them).
// The buffer the file itself ends in (BlockRef::cut) is never taken for one.
#pragma once

#include <span>
#include <string>

#include "collectors/ingest/ingest_report.hpp"
#include "collectors/xray/call_event.hpp"
#include "collectors/xray/fdr_expander.hpp"
#include "collectors/xray/fdr_tokenizer.hpp"
#include "collectors/xray/fdr_verifier.hpp"
#include "collectors/xray/log_index.hpp"
#include "collectors/xray/xray_stats.hpp"

namespace apcgate::collectors::xray {

class FdrBlockDecoder {
  public:
    FdrBlockDecoder(std::span<const std::uint8_t> input, const BlockRef& block,
                    const FdrFormat& format, const std::string& input_name, FdrExpander& expander,
                    Stats& stats, ingest::IngestReport& report);

    // Appends events until `out` holds `max` (an entry's arguments may go past it) or the
    // buffer ends; returns true when the buffer has nothing more.
    bool decode(CallBatch& out, std::size_t max);

  private:
    void function_run(CallBatch& out, std::size_t max);
    bool argument(CallBatch& out);      // false when the next record is no plain CallArgument
    bool custom_event(CallBatch& out);  // false when it is no plain version 5 custom event
    bool one_record(CallBatch& out);    // false when the buffer ended
    [[nodiscard]] bool next_is_argument() const;
    void use(const FdrToken& t, const FunctionRecord& f, CallBatch& out);
    // False, and the record reported, when its CPU is past kCpuLimit (a corrupt field).
    bool usable_cpu(const FdrToken& t, std::uint16_t cpu);
    // After a tokenizer error: reported, or counted as LLVM 14's short extents (see above).
    void framing_error();
    // Gives `value` to the entry just decoded; false when there is none or it has all it shows.
    bool attach_argument(std::uint64_t value, CallBatch& out);

    FdrTokenizer tokenizer_;
    FdrVerifier verifier_;
    FdrExpander& expander_;
    Stats& stats_;
    ingest::IngestReport& report_;
    const std::string& input_name_;
    bool done_ = false;
    bool cut_ = false;                // the file ends inside this buffer
    std::uint64_t typed_events_ = 0;  // met in this buffer so far
};

Stat function_stat(std::uint8_t action);

}  // namespace apcgate::collectors::xray
