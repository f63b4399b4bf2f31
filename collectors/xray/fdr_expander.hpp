// Turns one thread's verified FDR records into CallEvents with absolute TSCs (what LLVM's
// TraceExpander does): NewCPUId sets the CPU and the TSC base, TSCWrap the base, each function
// record (and, from version 5, each custom and typed event) adds its delta to the base, and
// CallArgument records attach to the entry before them, which makes it an entry with arguments.
// Before version 5 a custom event carries its own absolute TSC and leaves the base alone. Each
// event is stamped on the thread's clock as it is made.
#pragma once

#include <array>

#include "collectors/xray/call_event.hpp"
#include "collectors/xray/fdr_record_decode.hpp"
#include "collectors/xray/fdr_records.hpp"
#include "collectors/xray/tsc_clock.hpp"

namespace apcgate::collectors::xray {

// What a run of function records held, for the statistics and the verifier.
struct FunctionRunTally {
    std::array<std::uint64_t, 4> per_action{};
    std::uint8_t last_action = 0;
};

class FdrExpander {
  public:
    explicit FdrExpander(ThreadClock& clock) : clock_(clock) {}

    void new_cpu(const NewCpuIdRecord& r) {
        cpu_ = r.cpu;
        base_ = r.tsc;
    }
    void tsc_wrap(const TscWrapRecord& r) { base_ = r.tsc; }

    // `r.action` must be a valid FunctionAction (the verifier checked it).
    void function(const FunctionRecord& r, CallEvent& e) {
        base_ += r.tsc_delta;
        e.tsc = base_;
        e.ns = clock_.stamp(base_);
        e.payload_offset = 0;
        e.payload_size = 0;
        e.function = r.function;
        e.first_arg = 0;
        e.arg_count = 0;
        e.cpu = cpu_;
        e.kind = kKinds[r.action & 3U];
    }
    void function(const FunctionRecord& r, CallBatch& out) {
        function(r, *out.tail(1));
        out.commit(1);
    }

    // The hot loop, for runs of function records (most of a log): up to `records` 8-byte records
    // at `p` (bounds-checked by the caller) into `dst`, stopping before the first metadata record
    // or invalid action; returns how many it took. Instantiated per bit order and byte order so
    // the loop body has no format branches, with the state in locals the stores cannot alias.
    template <BitOrder Bits, bool Swap>
    std::size_t function_run(const std::uint8_t* p, std::size_t records, CallEvent* dst,
                             FunctionRunTally& tally) {
        std::uint64_t base = base_;
        const std::uint16_t cpu = cpu_;
        ThreadClock clock = clock_;
        std::size_t k = 0;
        for (; k < records; ++k, p += kFunctionRecordSize) {
            if (is_metadata_byte(*p, Bits)) break;
            std::uint32_t word = 0;
            std::uint32_t delta = 0;
            std::memcpy(&word, p, 4);
            std::memcpy(&delta, p + 4, 4);
            if constexpr (Swap) {
                word = __builtin_bswap32(word);
                delta = __builtin_bswap32(delta);
            }
            const std::uint32_t action =
                Bits == BitOrder::LsbFirst ? (word >> 1) & 7U : (word >> 28) & 7U;
            if (action > 3) break;
            base += delta;
            CallEvent& e = dst[k];
            e.tsc = base;
            e.ns = clock.stamp(base);
            e.payload_offset = 0;
            e.payload_size = 0;
            e.function = Bits == BitOrder::LsbFirst ? word >> 4 : word & 0x0FFFFFFFU;
            e.first_arg = 0;
            e.arg_count = 0;
            e.cpu = cpu;
            e.kind = kKinds[action];
            ++tally.per_action[action];
            tally.last_action = static_cast<std::uint8_t>(action);
        }
        base_ = base;
        clock_.set_last(clock.last());
        return k;
    }

    // Attaches an argument to the entry just appended; false (not kept) past kMaxCallArgs.
    bool argument(std::uint64_t value, CallBatch& out) {
        if (out.empty()) return false;
        CallEvent& e = out.back();
        if (!is_entry(e.kind) || e.arg_count >= kMaxCallArgs) return false;
        if (e.arg_count == 0) e.first_arg = static_cast<std::uint32_t>(out.args.size());
        out.args.push_back(value);
        ++e.arg_count;
        e.kind = CallKind::EnterArgs;
        return true;
    }

    void custom_event(const CustomEventRecord& r, std::uint64_t payload_offset, CallBatch& out) {
        CallEvent e{};
        if (r.has_delta) {
            base_ += static_cast<std::uint64_t>(static_cast<std::int64_t>(r.tsc_delta));
            e.tsc = base_;
        } else {
            e.tsc = r.tsc;
        }
        e.ns = clock_.stamp(e.tsc);
        e.cpu = r.has_cpu ? r.cpu : cpu_;
        e.kind = CallKind::CustomEvent;
        e.payload_offset = payload_offset;
        e.payload_size = static_cast<std::uint32_t>(r.size);
        out.push(e);
    }

    void typed_event(const TypedEventRecord& r, std::uint64_t payload_offset, CallBatch& out) {
        base_ += static_cast<std::uint64_t>(static_cast<std::int64_t>(r.tsc_delta));
        CallEvent e{};
        e.tsc = base_;
        e.ns = clock_.stamp(base_);
        e.cpu = cpu_;
        e.function = r.type;
        e.kind = CallKind::TypedEvent;
        e.payload_offset = payload_offset;
        e.payload_size = static_cast<std::uint32_t>(r.size);
        out.push(e);
    }

  private:
    static constexpr CallKind kKinds[4] = {CallKind::Enter, CallKind::Exit, CallKind::TailExit,
                                           CallKind::EnterArgs};
    ThreadClock& clock_;
    std::uint64_t base_ = 0;
    std::uint16_t cpu_ = 0;
};

}  // namespace apcgate::collectors::xray
