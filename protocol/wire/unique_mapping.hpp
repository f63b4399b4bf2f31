// Owns one memory mapping and unmaps it exactly once: the RAII type for mappings a layer makes
// itself (a perf ring buffer, a large text read into place), as UniqueFd is for descriptors.
// Move-only; grow() moves it with mremap(2), page tables rather than bytes.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace apcgate::wire {

class UniqueMapping {
  public:
    UniqueMapping() = default;
    UniqueMapping(void* base, std::size_t size) : base_(base), size_(size) {}
    // An anonymous private read-write mapping of `size` bytes; empty if the system refuses.
    static UniqueMapping anonymous(std::size_t size) {
        void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? UniqueMapping{} : UniqueMapping{p, size};
    }
    UniqueMapping(UniqueMapping&& o) noexcept
        : base_(std::exchange(o.base_, nullptr)), size_(std::exchange(o.size_, 0)) {}
    UniqueMapping& operator=(UniqueMapping&& o) noexcept {
        if (this != &o) {
            reset();
            base_ = std::exchange(o.base_, nullptr);
            size_ = std::exchange(o.size_, 0);
        }
        return *this;
    }
    UniqueMapping(const UniqueMapping&) = delete;
    UniqueMapping& operator=(const UniqueMapping&) = delete;
    ~UniqueMapping() { reset(); }

    void reset() {
        if (base_ != nullptr) ::munmap(base_, size_);
        base_ = nullptr;
        size_ = 0;
    }
    // Grows the mapping to `size` bytes, moving it if need be; false (and unchanged) if the
    // system refuses.
    bool grow(std::size_t size) {
        void* p = ::mremap(base_, size_, size, MREMAP_MAYMOVE);
        if (p == MAP_FAILED) return false;
        base_ = p;
        size_ = size;
        return true;
    }
    [[nodiscard]] void* get() const { return base_; }
    [[nodiscard]] std::uint8_t* bytes() const { return static_cast<std::uint8_t*>(base_); }
    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] bool valid() const { return base_ != nullptr; }

  private:
    void* base_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace apcgate::wire
