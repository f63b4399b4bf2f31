#include "collectors/xray/thread_cursor.hpp"

#include <algorithm>

namespace apcgate::collectors::xray {

bool ThreadCursor::refill() {
    batch_.clear();
    head_ = 0;
    const auto& blocks = ctx_.index.threads[thread_].blocks;
    while (batch_.empty()) {
        if (std::holds_alternative<std::monostate>(decoder_)) {
            if (next_block_ >= blocks.size()) return false;
            const BlockRef& b = ctx_.index.blocks[blocks[next_block_]];
            if (ctx_.header.type == LogType::Fdr) {
                decoder_.emplace<FdrBlockDecoder>(ctx_.data, b, ctx_.fdr, ctx_.input, expander_,
                                                  ctx_.stats, *ctx_.report);
            } else {
                decoder_.emplace<BasicBlockDecoder>(ctx_.data, b, ctx_.header, ctx_.input, clock_,
                                                    ctx_.stats, *ctx_.report);
            }
        }
        const bool finished = std::visit(
            [this](auto& d) {
                if constexpr (std::is_same_v<std::decay_t<decltype(d)>, std::monostate>) {
                    return true;
                } else {
                    return d.decode(batch_, capacity_);
                }
            },
            decoder_);
        if (finished) {
            ctx_.bytes_done += ctx_.index.blocks[blocks[next_block_]].size;
            decoder_.emplace<std::monostate>();
            ++next_block_;
        }
    }
    capacity_ = std::min(capacity_ * 2, kMaxBatch);
    // An end marker after the events (not counted in the batch): the merger reads the time of
    // the event after the one it takes without a bounds check, and stops at this one.
    batch_.tail(1)->ns = kEndNs;
    return true;
}

}  // namespace apcgate::collectors::xray
