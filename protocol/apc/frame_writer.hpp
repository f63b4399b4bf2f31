// Building blocks for writing APC frame bodies (gator-protocol-v6.8.txt, "APC Frame Format"):
// a small stack buffer a message is encoded into before it is known to fit, the state of one
// open frame, and size helpers. Internal to the encoder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "protocol/apc/encoder.hpp"
#include "protocol/model/event.hpp"
#include "protocol/wire/byte_writer.hpp"

namespace apcgate::apc::detail {

// Bytes a packed32/packed64 takes, without encoding it.
inline std::size_t packed_size(std::int64_t v) {
    std::size_t n = 1;
    // Each byte holds 7 bits; stop once the rest is pure sign extension of bit 6.
    while (v < -64 || v > 63) {
        v >>= 7;
        ++n;
    }
    return n;
}

// The longest prefix of `s` no longer than `max` that does not cut a UTF-8 sequence in two.
inline std::string_view utf8_prefix(std::string_view s, std::size_t max) {
    if (s.size() <= max) return s;
    std::size_t n = max;
    // Back up over continuation bytes (10xxxxxx) so the cut lands before a lead byte.
    while (n > 0 && (static_cast<std::uint8_t>(s[n]) & 0xC0) == 0x80) --n;
    return s.substr(0, n);
}

// One message encoded on the stack: every fixed-layout message fits in kCapacity bytes, so the
// hot path never touches the heap before it knows the message fits its frame.
class MessageBuf {
  public:
    static constexpr std::size_t kCapacity = 64;

    void p32(std::int32_t v) { n_ += wire::encode_packed64(v, buf_ + n_); }
    void p64(std::int64_t v) { n_ += wire::encode_packed64(v, buf_ + n_); }
    void clear() { n_ = 0; }
    [[nodiscard]] std::size_t size() const { return n_; }
    [[nodiscard]] const std::uint8_t* data() const { return buf_; }

  private:
    std::uint8_t buf_[kCapacity + wire::kMaxPacked64];
    std::size_t n_ = 0;
};

// std::allocator, but growing a vector leaves the new elements uninitialised (default-
// initialised, which for bytes is nothing) instead of zeroing them
// (allocator_traits rebinds it to NoZeroAllocator<U> by itself: C++20's std::allocator has no
// rebind member of its own to be found first.)
template <class T>
struct NoZeroAllocator : std::allocator<T> {
    NoZeroAllocator() = default;
    template <class U>
    explicit NoZeroAllocator(const NoZeroAllocator<U>& /*other*/) noexcept {}
    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

// A frame body. The writers make room with resize(), write their message into it and cut the
// body back to what they wrote, so the room is never read before it is written: zeroing it
// first (std::vector<std::uint8_t> does) was a memset of every frame's bytes.
using FrameBytes = std::vector<std::uint8_t, NoZeroAllocator<std::uint8_t>>;
using BodyWriter = wire::BasicByteWriter<FrameBytes>;

// Room a writer may ask for past a frame's cap (put_message() below): the longest fixed-layout
// message, rounded up.
inline constexpr std::size_t kFrameSlack = 64;

inline constexpr model::Nanos kNoTimestamp = std::numeric_limits<model::Nanos>::min();

// One frame being filled. The header (code and, for some types, core) stays at the front of
// `body` for the frame's whole life: sending a frame truncates the body back to the header, so
// the buffer and its capacity are reused for the next frame of the same type and core.
struct OpenFrame {
    OpenFrame(FrameType t, std::int32_t c) : type(t), core(c) {
        BodyWriter w(body);
        w.packed32(static_cast<std::int32_t>(t));
        if (frame_has_core(t)) w.packed32(c);
        header_size = body.size();
    }

    [[nodiscard]] bool empty() const { return body.size() == header_size; }
    void append(const MessageBuf& m) { body.insert(body.end(), m.data(), m.data() + m.size()); }
    void append(const std::uint8_t* p, std::size_t n) { body.insert(body.end(), p, p + n); }

    FrameType type;
    std::int32_t core;
    FrameBytes body;
    std::size_t header_size = 0;
    // Last timestamp written to this stream (kept across frames: order holds per core, not
    // just per frame).
    model::Nanos last_ts = kNoTimestamp;

    // Block Counter state. A timestamp (key 0) resets the core to the header's and the pid to
    // none (the seed: values apply "until another core or timestamp is emitted").
    bool in_block = false;  // a key 0 was written to the current frame
    model::Nanos block_ts = 0;
    std::size_t block_start = 0;  // offset of the current block's key 0 in `body`
    std::int32_t block_core = 0;
    std::int32_t block_pid = 0;  // 0: values belong to no pid
};

}  // namespace apcgate::apc::detail
