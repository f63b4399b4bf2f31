#include "collectors/xray/fdr_verifier.hpp"

namespace apcgate::collectors::xray {

FdrVerifier::Verdict FdrVerifier::check(FdrKind kind, std::uint8_t action) {
    if (state_ == State::Ended) return end("the buffer already ended");
    switch (kind) {
        case FdrKind::NewBuffer:
            if (state_ != State::Start) return end("a NewBuffer record inside a buffer");
            state_ = State::Preamble;
            return Verdict::Use;
        case FdrKind::BufferExtents:
            return end("a BufferExtents record inside a buffer");
        case FdrKind::EndOfBuffer:
            if (version_ >= 2) return end("EndOfBuffer records are not written after version 1");
            state_ = State::Ended;
            reason_ = "end of buffer";
            return Verdict::EndBuffer;
        case FdrKind::WallClock:
        case FdrKind::Pid:
            if (state_ == State::Start) return skip("a record before the buffer's NewBuffer");
            return Verdict::Use;
        case FdrKind::NewCpuId:
        case FdrKind::TscWrap:
            if (state_ == State::Start) return skip("a record before the buffer's NewBuffer");
            state_ = State::Body;
            return Verdict::Use;
        case FdrKind::Function:
            if (action > static_cast<std::uint8_t>(FunctionAction::EntryArgs))
                return skip("unknown function record action");
            if (!timed()) return skip("a function record before any NewCPUId: no time base");
            saw_function(action == static_cast<std::uint8_t>(FunctionAction::Entry) ||
                         action == static_cast<std::uint8_t>(FunctionAction::EntryArgs));
            return Verdict::Use;
        case FdrKind::CallArgument:
            if (state_ != State::AfterEntry)
                return skip("a CallArgument record not after a function entry");
            return Verdict::Use;
        case FdrKind::CustomEvent:
        case FdrKind::TypedEvent:
            if (!timed()) return skip("an event before any NewCPUId: no time base");
            state_ = State::Body;
            return Verdict::Use;
    }
    return skip("unknown record");
}

}  // namespace apcgate::collectors::xray
