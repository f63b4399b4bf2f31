// The I/O side of the Barman ingester: the dump file (read with pread, never all at once) and
// a block reader that feeds the tokenizer bounded windows of the record stream. Everything
// else in this folder works on bytes it is given.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "collectors/barman/block_tokenizer.hpp"
#include "protocol/wire/mapped_file.hpp"
#include "protocol/wire/result.hpp"
#include "protocol/wire/unique_fd.hpp"

namespace apcgate::collectors::barman {

class DumpFile {
  public:
    static Result<DumpFile> open(const std::filesystem::path& path);
    DumpFile(DumpFile&& other) noexcept = default;
    DumpFile& operator=(DumpFile&& other) noexcept = default;
    DumpFile(const DumpFile&) = delete;
    DumpFile& operator=(const DumpFile&) = delete;
    ~DumpFile() = default;

    [[nodiscard]] std::uint64_t size() const { return size_; }
    [[nodiscard]] const std::string& path() const { return path_; }
    // The file as it was opened: a rewrite since changes the identity at its path.
    [[nodiscard]] const wire::FileIdentity& identity() const { return identity_; }
    // Fills `out` from `offset` (the whole span, or an error naming the offset).
    [[nodiscard]] Status read_at(std::uint64_t offset, std::span<std::uint8_t> out) const;

  private:
    DumpFile(wire::UniqueFd fd, std::uint64_t size, std::string path, wire::FileIdentity identity)
        : fd_(std::move(fd)), size_(size), path_(std::move(path)), identity_(identity) {}
    wire::UniqueFd fd_;
    std::uint64_t size_ = 0;
    std::string path_;
    wire::FileIdentity identity_;
};

// Blocks of the record stream, read `chunk` logical bytes at a time (more only when one block
// is larger). A split error or an I/O error stops it; error() then says why.
class BlockReader {
  public:
    static constexpr std::size_t kDefaultChunk = 1u << 20;
    enum class Step { Block, End, Stopped };

    BlockReader(const DumpFile& file, const StoreGeometry& geometry, const Abi& abi,
                std::size_t chunk = kDefaultChunk)
        : file_(file), geometry_(geometry), tokenizer_(geometry, abi), chunk_(chunk) {}

    // The next block, loading the window when the tokenizer needs more. Inline for a block the
    // window holds (the tokenizer's inline case), as it runs for every block.
    Step next(Block& out) {
        if (error_) return Step::Stopped;
        const BlockTokenizer::Step step = tokenizer_.next(out);
        return step == BlockTokenizer::Step::Block ? Step::Block : settle(step, out);
    }
    // Every block from here to where next() would stop, given to fn(padding, data) (an oversized
    // block's data empty, as next() gives it); returns End or Stopped, as next() would.
    template <typename Fn>
    Step scan(Fn&& fn) {
        Block b;
        for (;;) {
            if (error_) return Step::Stopped;
            tokenizer_.each_held(fn);
            const Step step = next(b);
            if (step != Step::Block) return step;
            fn(b.padding, b.data);
        }
    }
    [[nodiscard]] const std::optional<Error>& error() const { return error_; }
    [[nodiscard]] std::uint64_t position() const { return tokenizer_.position(); }
    [[nodiscard]] std::uint64_t trailing_bytes() const { return tokenizer_.trailing_bytes(); }

  private:
    Status load(std::uint64_t from, std::uint64_t need);
    // next() after the tokenizer's `step` was not a block: ends, stops, or loads and goes on.
    Step settle(BlockTokenizer::Step step, Block& out);

    const DumpFile& file_;
    const StoreGeometry& geometry_;
    BlockTokenizer tokenizer_;
    std::size_t chunk_;
    std::vector<std::uint8_t> window_;
    std::optional<Error> error_;
};

}  // namespace apcgate::collectors::barman
