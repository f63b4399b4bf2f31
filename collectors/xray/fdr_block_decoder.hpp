// Reads one FDR buffer into CallEvents, a batch at a time: the tokenizer frames each record, the
// verifier rules on it, the record is decoded into its type and the thread's expander turns it
// into events. Runs of function records (most of a log) take a shortcut through the same
// steps without the per-record dispatch, and so do whole CallArgument records after an entry and
// version 5 custom events (which break those runs every few tens of records in a real log). A
// framing error (a partial record at the end of the buffer, as LLVM 14 writes after typed events,
// or an unknown record kind) is reported and ends this buffer; everything before it is kept and the
// next buffer is read normally.
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
    // Gives `value` to the entry just decoded; false when there is none or it has all it shows.
    bool attach_argument(std::uint64_t value, CallBatch& out);

    FdrTokenizer tokenizer_;
    FdrVerifier verifier_;
    FdrExpander& expander_;
    Stats& stats_;
    ingest::IngestReport& report_;
    const std::string& input_name_;
    bool done_ = false;
};

Stat function_stat(std::uint8_t action);

}  // namespace apcgate::collectors::xray
