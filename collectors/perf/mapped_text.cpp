#include "collectors/perf/mapped_text.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "protocol/wire/unique_fd.hpp"

namespace apcgate::collectors::perf {

MappedText::MappedText(MappedText&& o) noexcept
    : base_(std::exchange(o.base_, nullptr)),
      mapped_(std::exchange(o.mapped_, 0)),
      before_(std::exchange(o.before_, 0)),
      size_(std::exchange(o.size_, 0)),
      after_(std::exchange(o.after_, 0)) {}

MappedText& MappedText::operator=(MappedText&& o) noexcept {
    if (this != &o) {
        release();
        base_ = std::exchange(o.base_, nullptr);
        mapped_ = std::exchange(o.mapped_, 0);
        before_ = std::exchange(o.before_, 0);
        size_ = std::exchange(o.size_, 0);
        after_ = std::exchange(o.after_, 0);
    }
    return *this;
}

MappedText::~MappedText() {
    release();
}

void MappedText::release() {
    if (base_ != nullptr) ::munmap(base_, mapped_);
    base_ = nullptr;
    mapped_ = before_ = size_ = after_ = 0;
}

MappedText MappedText::read(const std::filesystem::path& proc_root, std::string_view relative,
                            std::size_t before, std::size_t after) {
    MappedText t;
    const wire::UniqueFd fd(::open((proc_root / relative).c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) return t;
    std::size_t mapped = std::size_t{1} << 20;  // doubled as needed: page tables move, not bytes
    void* p = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return t;
    t.base_ = static_cast<std::uint8_t*>(p);
    t.mapped_ = mapped;
    t.before_ = before;
    for (;;) {
        const std::size_t used = before + t.size_;
        if (mapped - used < after + 4096) {
            void* q = ::mremap(t.base_, mapped, mapped * 2, MREMAP_MAYMOVE);
            if (q == MAP_FAILED) return {};
            t.base_ = static_cast<std::uint8_t*>(q);
            mapped *= 2;
            t.mapped_ = mapped;
        }
        const ssize_t n = ::read(fd.get(), t.base_ + before + t.size_, mapped - used - after);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        t.size_ += static_cast<std::size_t>(n);
    }
    if (t.size_ == 0) return {};
    t.after_ = after;
    return t;
}

}  // namespace apcgate::collectors::perf
