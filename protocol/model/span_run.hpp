// Channel string annotations in bulk: what a run of Annotation events with StringAnnotation
// bodies (no colour) says, as one event. Converters turn millions of calls into spans — one
// annotation opens a span, an empty one on the same channel closes it — and as separate events
// each would carry its own heap string through the merger and the encoder, which then costs more
// than decoding the trace. A run keeps the items in one vector and their texts back to back in
// one string, and the encoder writes exactly the bytes the equivalent Annotation events give.
//
// Items are in non-decreasing time order. `first` marks where the pending part starts: the
// merger emits a run's front part when another source's events fall inside it, and keeps the
// rest. The run's time, for ordering it among other events, is its first pending item's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/wire/short_copy.hpp"

namespace apcgate::model {

// A run's texts, back to back. Not a std::string: appending a function name is what a converter
// does for every call it maps, and std::string::append is an out-of-line call with a library
// memcpy behind it; here the copy is inline and the buffer grows without being zeroed, which
// is a sizeable part of what SpanRun::add costs (docs/performance.md).
class SpanTexts {
  public:
    SpanTexts() = default;
    SpanTexts(const SpanTexts& other) { append(other.view()); }
    SpanTexts& operator=(const SpanTexts& other) {
        if (this != &other) {
            size_ = 0;
            append(other.view());
        }
        return *this;
    }
    SpanTexts(SpanTexts&& other) noexcept
        : data_(std::move(other.data_)),
          size_(std::exchange(other.size_, 0)),
          capacity_(std::exchange(other.capacity_, 0)) {}
    SpanTexts& operator=(SpanTexts&& other) noexcept {
        data_ = std::move(other.data_);
        size_ = std::exchange(other.size_, 0);
        capacity_ = std::exchange(other.capacity_, 0);
        return *this;
    }
    ~SpanTexts() = default;

    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] std::size_t capacity() const { return capacity_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    void clear() { size_ = 0; }  // keeps the buffer
    [[nodiscard]] const char* data() const { return data_.get(); }
    [[nodiscard]] std::string_view view() const { return {data_.get(), size_}; }

    void reserve(std::size_t n) {
        if (n > capacity_) regrow(n);
    }
    void append(std::string_view s) {
        if (s.size() > capacity_ - size_) regrow(std::max(size_ + s.size(), capacity_ * 2));
        wire::copy_short(data_.get() + size_, s.data(), s.size());
        size_ += s.size();
    }

  private:
    void regrow(std::size_t capacity) {
        auto bigger = std::make_unique_for_overwrite<char[]>(capacity);
        if (size_ != 0) std::copy_n(data_.get(), size_, bigger.get());
        data_ = std::move(bigger);
        capacity_ = capacity;
    }

    std::unique_ptr<char[]> data_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

struct SpanItem {
    std::int64_t ts = 0;
    std::uint32_t text_offset = 0;  // in SpanRun::texts
    std::uint32_t text_size = 0;    // 0: the empty text that ends the channel's span
    std::int32_t core = 0;
    std::int32_t tid = 0;
    std::int32_t channel = 0;
};

struct SpanRun {
    std::vector<SpanItem> items;
    SpanTexts texts;
    std::size_t first = 0;

    [[nodiscard]] bool empty() const { return first == items.size(); }
    [[nodiscard]] std::size_t pending() const { return items.size() - first; }
    // The first pending item's time (0 when none is pending).
    [[nodiscard]] std::int64_t front_ts() const { return empty() ? 0 : items[first].ts; }
    [[nodiscard]] std::string_view text(const SpanItem& i) const {
        return texts.view().substr(i.text_offset, i.text_size);
    }
    // Appends one annotation (texts longer than 4 GiB in total start a new run first: the caller
    // checks fits()).
    void add(std::int64_t t, std::int32_t core, std::int32_t tid, std::int32_t channel,
             std::string_view text) {
        items.push_back(SpanItem{t, static_cast<std::uint32_t>(texts.size()),
                                 static_cast<std::uint32_t>(text.size()), core, tid, channel});
        if (!text.empty()) texts.append(text);  // half of them are empty (a span's end)
    }
    [[nodiscard]] bool fits(std::size_t text_bytes) const {
        return texts.size() + text_bytes < UINT32_MAX;
    }
    // Marks the first `n` pending items emitted.
    void advance(std::size_t n) { first += n; }
    // Empty again, its buffers kept (span_run_pool.hpp).
    void clear() {
        items.clear();
        texts.clear();
        first = 0;
    }
};

}  // namespace apcgate::model
