// Basic-mode logs (record layout and grammar in basic_records.hpp): the first pass splits the
// records into runs of one thread (the blocks of the index; a thread's runs are kept in file
// order, which is its time order), and a block decoder turns a run into CallEvents.
#pragma once

#include <span>
#include <string>

#include "collectors/ingest/ingest_report.hpp"
#include "collectors/xray/call_event.hpp"
#include "collectors/xray/log_index.hpp"
#include "collectors/xray/tsc_clock.hpp"
#include "collectors/xray/xray_header.hpp"
#include "collectors/xray/xray_stats.hpp"

namespace apcgate::collectors::xray {

// Finds every run of `data` (the whole log, header included). Problems go to `report`.
LogIndex index_basic(std::span<const std::uint8_t> data, const FileHeader& header,
                     const std::string& input, Stats& stats, ingest::IngestReport& report);

class BasicBlockDecoder {
  public:
    BasicBlockDecoder(std::span<const std::uint8_t> input, const BlockRef& block,
                      const FileHeader& header, const std::string& input_name, ThreadClock& clock,
                      Stats& stats, ingest::IngestReport& report);

    // Appends events until `out` holds `max` (an entry's arguments may go past it) or the run
    // ends; returns true when the run has nothing more.
    bool decode(CallBatch& out, std::size_t max);

  private:
    void record(std::span<const std::uint8_t> bytes, std::uint64_t offset, CallBatch& out);
    void argument(std::span<const std::uint8_t> bytes, std::uint64_t offset, CallBatch& out);
    [[nodiscard]] bool next_is_argument() const;

    wire::ByteReader reader_;
    wire::Endian endian_;
    std::uint16_t version_;
    const std::string& input_name_;
    ThreadClock& clock_;
    Stats& stats_;
    ingest::IngestReport& report_;
    // The record the next argument payload belongs to, if it is still in this batch.
    bool entry_open_ = false;
    std::int32_t entry_function_ = 0;
    std::uint32_t entry_tid_ = 0;
    std::uint32_t entry_pid_ = 0;
};

}  // namespace apcgate::collectors::xray
