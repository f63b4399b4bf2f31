// A large /proc text (/proc/kallsyms: 5 MB or more) read whole into pages of its own: an
// anonymous mapping grown with mremap(2), so it is never copied while it grows, and unmapped
// when done, so the pages go straight back to the system (a malloc'd buffer that size, once
// freed, raises glibc's mmap threshold and leaves later buffers in the heap). Room is kept
// before the text and after it, so that a message can be written around it in place: the
// Perf framing sends kallsyms as one frame, and this way only one copy of it is ever resident.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>

#include "protocol/wire/unique_mapping.hpp"

namespace apcgate::collectors::perf {

class MappedText {
  public:
    // The file's text with `before` and `after` bytes of room around it; empty when the file
    // cannot be read (or the memory cannot be had). A read error part way keeps what was read.
    static MappedText read(const std::filesystem::path& proc_root, std::string_view relative,
                           std::size_t before, std::size_t after);

    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] std::span<const std::uint8_t> bytes() const {
        return {mapping_.bytes() + before_, size_};
    }
    // The room before the text (its last bytes touch the text) and after it.
    [[nodiscard]] std::span<std::uint8_t> room_before() { return {mapping_.bytes(), before_}; }
    [[nodiscard]] std::span<std::uint8_t> room_after() {
        return {mapping_.bytes() + before_ + size_, after_};
    }
    // `n` bytes before the text, the text and `m` bytes after it, as one span.
    [[nodiscard]] std::span<const std::uint8_t> around(std::size_t n, std::size_t m) const {
        return {mapping_.bytes() + before_ - n, n + size_ + m};
    }

  private:
    wire::UniqueMapping mapping_;
    std::size_t before_ = 0, size_ = 0, after_ = 0;
};

}  // namespace apcgate::collectors::perf
