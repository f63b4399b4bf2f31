// Spare strings for item texts (items.hpp). Nearly every event's text is longer than the buffer
// std::string keeps inline, so a fresh string per item would cost one malloc when the item
// builder writes it and one free when the chunk's items are cleared. Instead the texts the model
// mapper is done with come back here, emptied with their buffers kept, and the next items'
// texts are written into them. The pool is bounded in the strings it keeps and in each one's
// size, so what it holds stays bounded by a chunk, not by the input.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace apcgate::collectors::fxt {

class TextPool {
  public:
    // Strings kept at most: a chunk's items (ArchiveReader::Limits::max_items) unless told.
    static constexpr std::size_t kDefaultLimit = 16384;
    // A kept string's largest capacity: a rare long text (a log message of kilobytes) is freed
    // rather than kept for the short ones nearly all texts are.
    static constexpr std::size_t kMaxCapacity = 1024;

    explicit TextPool(std::size_t limit = kDefaultLimit) : limit_(limit) {}

    // Gives `s`, an empty string, the buffer of a spare one when there is one. (In place rather
    // than returned: a new item's text is written where it stands, without a move in between.)
    void take(std::string& s) {
        if (spare_.empty()) return;
        s = std::move(spare_.back());
        spare_.pop_back();
    }
    // Keeps the buffer of `s` (emptied) for a later take(). A string that has no buffer of its
    // own (within the inline one, or moved from), whose buffer is too large, or that comes when
    // the pool is full is left as it is.
    void give(std::string&& s) {
        if (s.capacity() <= inline_ || s.capacity() > kMaxCapacity || spare_.size() >= limit_)
            return;
        s.clear();
        spare_.push_back(std::move(s));
    }

    [[nodiscard]] std::size_t size() const { return spare_.size(); }
    [[nodiscard]] std::size_t limit() const { return limit_; }

  private:
    std::vector<std::string> spare_;
    std::size_t limit_;
    std::size_t inline_ = std::string().capacity();  // what a string holds without a buffer
};

}  // namespace apcgate::collectors::fxt
