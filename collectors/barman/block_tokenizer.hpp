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
    Step next(Block& out);

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
