// Checks the order of records within one buffer against the grammar (fdr_records.hpp; the
// transitions LLVM's BlockVerifier allows), one record at a time. Its verdict says whether the
// record may be used: records are kept whenever that is safe, so a misplaced WallClockTime or
// Pid is used as is, while a function record before any NewCPUId (no time base yet) or a
// CallArgument not after a function entry is skipped, and a record that cannot be inside a
// buffer (a second NewBuffer, a BufferExtents) ends the buffer.
#pragma once

#include <cstdint>
#include <string_view>

#include "collectors/xray/fdr_records.hpp"

namespace apcgate::collectors::xray {

class FdrVerifier {
  public:
    enum class Verdict : std::uint8_t { Use, Skip, EndBuffer };

    explicit FdrVerifier(std::uint16_t version) : version_(version) {}

    // For a function record pass its action; `reason()` explains Skip and EndBuffer.
    Verdict check(FdrKind kind, std::uint8_t action = 0);
    [[nodiscard]] std::string_view reason() const { return reason_; }
    // True once a NewCPUId or TSCWrap gave the buffer a time base: function records may follow.
    [[nodiscard]] bool timed() const { return state_ >= State::Body; }
    // True right after an entry record: CallArgument records may follow.
    [[nodiscard]] bool after_entry() const { return state_ == State::AfterEntry; }
    // The hot loop's shortcut for one function record with a valid action while timed().
    void saw_function(bool entry) { state_ = entry ? State::AfterEntry : State::Body; }

  private:
    enum class State : std::uint8_t { Start, Preamble, Body, AfterEntry, Ended };
    Verdict skip(std::string_view why) {
        reason_ = why;
        return Verdict::Skip;
    }
    Verdict end(std::string_view why) {
        reason_ = why;
        state_ = State::Ended;
        return Verdict::EndBuffer;
    }

    std::uint16_t version_;
    State state_ = State::Start;
    std::string_view reason_;
};

}  // namespace apcgate::collectors::xray
