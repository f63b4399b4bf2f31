#include "collectors/perf/ring_buffer.hpp"

#include <linux/perf_event.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace apcgate::collectors::perf {

Status copy_ring(std::span<const std::uint8_t> data, std::uint64_t tail, std::uint64_t head,
                 std::vector<std::uint8_t>& out) {
    const std::uint64_t size = data.size();
    if (size == 0 || (size & (size - 1)) != 0)
        return Error::at(ErrorKind::Internal, "ring size is not a power of two");
    if (head < tail || head - tail > size) {
        Error e = Error::at(ErrorKind::Malformed, "ring head " + std::to_string(head) +
                                                      " is not within one ring of tail " +
                                                      std::to_string(tail));
        e.offset = tail;
        e.record = "perf_event_mmap_page";
        return e;
    }
    const std::uint64_t n = head - tail;
    const std::size_t at = static_cast<std::size_t>(tail & (size - 1));
    const std::size_t first = static_cast<std::size_t>(std::min<std::uint64_t>(n, size - at));
    out.insert(out.end(), data.begin() + static_cast<std::ptrdiff_t>(at),
               data.begin() + static_cast<std::ptrdiff_t>(at + first));
    // The rest wrapped around to the start of the area.
    out.insert(out.end(), data.begin(), data.begin() + static_cast<std::ptrdiff_t>(n - first));
    return {};
}

std::uint64_t whole_records_end(std::span<const std::uint8_t> data, std::uint64_t tail,
                                std::uint64_t head, std::size_t max_bytes) {
    const std::uint64_t size = data.size();
    if (head <= tail || head - tail <= max_bytes || size == 0 || (size & (size - 1)) != 0)
        return head;
    constexpr std::uint64_t kHeaderBytes = 8;
    constexpr std::uint64_t kSizeAt = 6;
    std::uint64_t end = tail;
    while (head - end >= kHeaderBytes) {
        // Byte by byte: the two bytes of a size may straddle the end of the area.
        std::uint8_t bytes[2];
        for (std::uint64_t i = 0; i < 2; ++i) bytes[i] = data[(end + kSizeAt + i) & (size - 1)];
        std::uint16_t record = 0;
        std::memcpy(&record, bytes, sizeof record);
        if (record < kHeaderBytes || record > head - end) return head;
        if (end + record - tail > max_bytes && end > tail) return end;
        end += record;
    }
    return end == tail ? head : end;
}

Result<PerfRing> PerfRing::map(int fd, std::size_t data_bytes) {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    if (data_bytes < page || (data_bytes & (data_bytes - 1)) != 0)
        return Error::at(ErrorKind::Usage,
                         "ring size " + std::to_string(data_bytes) + " is not 2^n pages");
    PerfRing r;
    const std::size_t map_bytes = page + data_bytes;
    void* p = ::mmap(nullptr, map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        const int err = errno;
        std::string msg = "mmap of the perf ring (" + std::to_string(data_bytes / 1024) +
                          " KiB): " + std::strerror(err);
        if (err == EPERM || err == ENOMEM)
            msg += " (over the locked-memory limit: kernel.perf_event_mlock_kb / ulimit -l)";
        return Error::at(ErrorKind::Io, std::move(msg));
    }
    r.mapping_ = wire::UniqueMapping(p, map_bytes);
    r.data_bytes_ = data_bytes;
    return r;
}

Result<PerfRing::Drained> PerfRing::drain(std::vector<std::uint8_t>& out, std::size_t max_bytes) {
    if (!mapping_.valid()) return Drained{};
    auto* page = static_cast<perf_event_mmap_page*>(mapping_.get());
    // Acquire pairs with the kernel's release of data_head: the bytes before it are complete.
    const std::uint64_t head = __atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE);
    const std::uint64_t tail = page->data_tail;
    const std::uint8_t* data = mapping_.bytes() + (mapping_.size() - data_bytes_);
    const std::span<const std::uint8_t> area{data, data_bytes_};
    // A head that is not within one ring of the tail is copy_ring's error to report, whole.
    const std::uint64_t end = head >= tail && head - tail <= data_bytes_
                                  ? whole_records_end(area, tail, head, max_bytes)
                                  : head;
    const std::size_t before = out.size();
    Status st = copy_ring(area, tail, end, out);
    // Release: the kernel may overwrite the space only after we have copied it.
    __atomic_store_n(&page->data_tail, end, __ATOMIC_RELEASE);
    if (!st) return std::move(st).take_error();
    return Drained{tail, out.size() - before, end != head};
}

}  // namespace apcgate::collectors::perf
