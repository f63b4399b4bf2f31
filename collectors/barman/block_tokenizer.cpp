// Block splitting; the grammar and the trailing-bytes rule are in block_tokenizer.hpp.
#include "collectors/barman/block_tokenizer.hpp"

#include "collectors/barman/record_kinds.hpp"

namespace apcgate::collectors::barman {

BlockTokenizer::Step BlockTokenizer::fail(std::string message) {
    // Both failures are at the end of the record data: where the file ended before it, the
    // last block was cut, not written wrong.
    Error e = Error::at(geometry_.truncated ? ErrorKind::Truncated : ErrorKind::Malformed,
                        std::move(message));
    e.offset = geometry_.file_offset(pos_);
    e.record = std::string(kind::kBlock);
    e.field = "length";
    error_ = std::move(e);
    return Step::Error;
}

BlockTokenizer::Step BlockTokenizer::next_checked(Block& out) {
    const unsigned width = abi_.pointer_size;
    for (;;) {
        if (error_) return Step::Error;
        if (pos_ >= geometry_.data_length) return Step::End;
        // No block (nor its length) straddles the physical end of a circular buffer: bytes too
        // few for a length there are trailing padding.
        if (pos_ < geometry_.wrap && geometry_.wrap - pos_ < width) {
            trailing_ += geometry_.wrap - pos_;
            pos_ = geometry_.wrap;
            continue;
        }
        const std::uint64_t left = geometry_.data_length - pos_;
        if (left < width)
            return fail(std::to_string(left) +
                        " bytes after the last block, too few for a block length");
        if (!have(width)) {
            needed_ = width;
            return Step::NeedMore;
        }
        const std::uint64_t raw = load_pointer(window_.data() + (pos_ - base_), abi_);
        const std::uint64_t pad_bit = std::uint64_t{1} << (width * 8 - 1);
        const std::uint64_t length = raw & ~pad_bit;
        if (length > left - width)
            return fail("block length " + std::to_string(length) +
                        " runs past the end of the record data (" + std::to_string(left - width) +
                        " bytes left)");
        // A block no record could fill is stepped over without loading it: memory stays
        // bounded whatever a corrupt length says.
        const bool oversized = length > kMaxBlockBytes;
        if (!oversized && !have(width + length)) {
            needed_ = width + length;
            return Step::NeedMore;
        }
        out.logical = pos_;
        out.file_offset = geometry_.file_offset(pos_);
        out.padding = (raw & pad_bit) != 0;
        out.oversized = oversized;
        out.length = length;
        out.data = oversized ? std::span<const std::uint8_t>()
                             : window_.subspan(pos_ - base_ + width, length);
        out.data_file_offset = geometry_.file_offset(pos_ + width);
        pos_ += width + length;
        return Step::Block;
    }
}

}  // namespace apcgate::collectors::barman
