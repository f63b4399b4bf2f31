// Splits the logical record stream into blocks (barman-v2-format.txt, "Linear", "Circular",
// "Record Length Encoding"):
//
//   block   := length:uintptr  data:u8[length & ~PAD]
//   PAD     := the length's most significant bit: set = padding block (skipped), clear = record
//
// Blocks are tightly packed. In a circular store, fewer than sizeof(uintptr) bytes before the
// physical end of the buffer are trailing bytes: treated as padding, reading goes on at
// physical 0. The tokenizer does no I/O: it reads from a window of logical bytes the caller
// loads, and asks for more (NeedMore, needed()) when a block does not fit in it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "collectors/barman/layout.hpp"
#include "collectors/barman/store_geometry.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::barman {

struct Block {
    std::uint64_t logical = 0;      // of the length prefix
    std::uint64_t file_offset = 0;  // of the length prefix
    bool padding = false;
    bool oversized = false;    // longer than kMaxBlockBytes: `data` is empty, the block skipped
    std::uint64_t length = 0;  // of the data
    std::span<const std::uint8_t> data;
    std::uint64_t data_file_offset = 0;  // of data[0]
};

// No record comes near this (an annotation's text is the only variable part); a larger block
// is corruption and is skipped without being read.
inline constexpr std::uint64_t kMaxBlockBytes = 16u << 20;

class BlockTokenizer {
  public:
    enum class Step { Block, NeedMore, End, Error };

    BlockTokenizer(const StoreGeometry& geometry, const Abi& abi)
        : geometry_(geometry), abi_(abi) {}

    // The window holds logical bytes [base, base + bytes.size()).
    void set_window(std::uint64_t base, std::span<const std::uint8_t> bytes) {
        base_ = base;
        window_ = bytes;
    }
    // Inline for the common case, a record block wholly in the window and clear of the end and
    // the wrap point: next() runs for every block, twice per store (the survey at open(), then
    // the capture), and its general path's checks cost as much as splitting the block does.
    Step next(Block& out) {
        const unsigned width = abi_.pointer_size;
        if (!error_ && pos_ >= base_ && pos_ < geometry_.data_length &&
            geometry_.data_length - pos_ >= width &&
            (pos_ >= geometry_.wrap || geometry_.wrap - pos_ >= width) && have(width)) {
            const std::uint64_t raw = load_pointer(window_.data() + (pos_ - base_), abi_);
            const std::uint64_t pad_bit = std::uint64_t{1} << (width * 8 - 1);
            const std::uint64_t length = raw & ~pad_bit;
            if (length <= geometry_.data_length - pos_ - width && length <= kMaxBlockBytes &&
                have(width + length)) {
                out.logical = pos_;
                out.file_offset = geometry_.file_offset(pos_);
                out.padding = (raw & pad_bit) != 0;
                out.oversized = false;
                out.length = length;
                out.data = window_.subspan(pos_ - base_ + width, length);
                out.data_file_offset = geometry_.file_offset(pos_ + width);
                pos_ += width + length;
                return Step::Block;
            }
        }
        return next_checked(out);
    }

    // Gives fn(padding, data) each block next() would give from here by its inline case, in
    // order, and stops at the first it would not (which next() then takes): a pass that only
    // looks at every block (the survey at open()) runs without next()'s per-block state.
    template <typename Fn>
    void each_held(Fn&& fn) {
        if (error_ || pos_ < base_) return;
        const unsigned width = abi_.pointer_size;
        const std::uint64_t pad_bit = std::uint64_t{1} << (width * 8 - 1);
        const std::uint64_t data_length = geometry_.data_length;
        const std::uint64_t wrap = geometry_.wrap;
        const std::uint64_t base = base_;
        const std::uint64_t window_end = base_ + window_.size();
        const std::uint8_t* const window = window_.data();
        std::uint64_t pos = pos_;
        // next()'s inline case, block by block (pos >= base holds: it only grows).
        while (pos < data_length && data_length - pos >= width &&
               (pos >= wrap || wrap - pos >= width) && pos + width <= window_end) {
            const std::uint64_t raw = load_pointer(window + (pos - base), abi_);
            const std::uint64_t length = raw & ~pad_bit;
            if (length > data_length - pos - width || length > kMaxBlockBytes ||
                pos + width + length > window_end)
                break;
            fn((raw & pad_bit) != 0,
               std::span<const std::uint8_t>(window + (pos - base + width), length));
            pos += width + length;
        }
        pos_ = pos;
    }

    // Logical offset of the next block.
    [[nodiscard]] std::uint64_t position() const { return pos_; }
    // After NeedMore: bytes the window must hold from position().
    [[nodiscard]] std::uint64_t needed() const { return needed_; }
    // After Error: why the rest of the stream cannot be split.
    [[nodiscard]] const std::optional<Error>& error() const { return error_; }
    [[nodiscard]] std::uint64_t trailing_bytes() const { return trailing_; }

  private:
    [[nodiscard]] bool have(std::uint64_t n) const {
        return pos_ >= base_ && pos_ - base_ + n <= window_.size();
    }
    Step fail(std::string message);
    // Every case, from the start: what next() does when its common case does not apply.
    Step next_checked(Block& out);

    const StoreGeometry& geometry_;
    Abi abi_;
    std::uint64_t base_ = 0;
    std::span<const std::uint8_t> window_;
    std::uint64_t pos_ = 0;
    std::uint64_t needed_ = 0;
    std::uint64_t trailing_ = 0;
    std::optional<Error> error_;
};

}  // namespace apcgate::collectors::barman
