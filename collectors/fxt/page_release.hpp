// Gives a read pass's pages of the mapped archive back as the pass moves on. The archive is
// mapped whole and read twice; the pages a pass has read stay in the process's resident set
// (file pages, though clean and shared with the page cache) until it unmaps the file, so without
// this a conversion's resident memory grows with the archive's size, not with what it holds.
// Pages left behind are dropped from the mapping (MADV_DONTNEED): a later pass faults them in
// again from the page cache.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace apcgate::collectors::fxt {

class PageRelease {
  public:
    // `mapping`: a read-only private file mapping (wire::MappedFile::bytes()).
    explicit PageRelease(std::span<const std::uint8_t> mapping) : mapping_(mapping) {}

    // Every byte before `offset` has been read for the last time by this pass. Pages go back in
    // steps of kStep bytes, so the system call is rare.
    void upto(std::size_t offset) {
        if (offset >= released_ + kStep) release(offset);
    }

    static constexpr std::size_t kStep = std::size_t{8} << 20;

  private:
    void release(std::size_t offset);

    std::span<const std::uint8_t> mapping_;
    std::size_t released_ = 0;
};

}  // namespace apcgate::collectors::fxt
