#include "collectors/ctf/stream_repair.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <deque>
#include <string>
#include <system_error>

#include "protocol/wire/unique_fd.hpp"

namespace apcgate::collectors::ctf {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMagicBytes = 4;
constexpr std::size_t kScanBlock = std::size_t{1} << 20;

// The magic as it is laid out in a big-endian and in a little-endian trace.
constexpr std::array<std::uint8_t, kMagicBytes> kMagicBe{0xC1, 0xFC, 0x1F, 0xC1};
constexpr std::array<std::uint8_t, kMagicBytes> kMagicLe{0xC1, 0x1F, 0xFC, 0xC1};
static_assert(((kPacketMagic >> 24) & 0xFF) == kMagicBe[0] && (kPacketMagic & 0xFF) == kMagicLe[0]);

bool starts_magic(const std::uint8_t* p, std::size_t n) {
    return std::equal(p, p + n, kMagicBe.begin()) || std::equal(p, p + n, kMagicLe.begin());
}

// The stream files of a trace directory as libbabeltrace2's source.ctf.fs sees them: every
// regular file but `metadata` and hidden ones, sorted.
std::vector<fs::path> stream_files(const fs::path& trace) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(trace, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name == "metadata" || name.empty() || name.front() == '.') continue;
        if (it->is_regular_file(ec)) files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

bool link_to(const fs::path& target, const fs::path& link) {
    std::error_code ec;
    fs::create_symlink(fs::absolute(target, ec), link, ec);
    return !ec;
}

// Writes the first `bytes` of `from` to the new file `to`.
bool copy_prefix(const fs::path& from, const fs::path& to, std::uint64_t bytes) {
    wire::UniqueFd in(::open(from.c_str(), O_RDONLY | O_CLOEXEC));
    wire::UniqueFd out(::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
    if (in.get() < 0 || out.get() < 0) return false;
    std::uint64_t left = bytes;
    while (left > 0) {
        const ssize_t n = ::copy_file_range(
            in.get(), nullptr, out.get(), nullptr,
            static_cast<std::size_t>(std::min<std::uint64_t>(left, std::uint64_t{1} << 30)), 0);
        if (n > 0) {
            left -= static_cast<std::uint64_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) return false;  // the file is shorter than it was
        break;                     // not supported between these files: copy through a buffer
    }
    std::vector<char> buf(std::min<std::uint64_t>(left, kScanBlock));
    while (left > 0) {
        const ssize_t n = ::read(in.get(), buf.data(), std::min<std::uint64_t>(left, buf.size()));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        for (ssize_t done = 0; done < n;) {
            const ssize_t w =
                ::write(out.get(), buf.data() + done, static_cast<std::size_t>(n - done));
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) return false;
            done += w;
        }
        left -= static_cast<std::uint64_t>(n);
    }
    return true;
}

// Where a prefix of `stream` ends at its last whole packet: the largest candidate end that
// libbabeltrace2 accepts, tried as a copy in `trial` (which holds the metadata); 0 when none.
std::uint64_t last_whole_packet_end(const fs::path& stream, const fs::path& trial,
                                    const TraceOpens& opens) {
    const std::vector<std::uint64_t> ends = packet_start_candidates(stream);
    const fs::path copy = trial / stream.filename();
    const auto accepted = [&](std::uint64_t end) {
        const bool ok = copy_prefix(stream, copy, end) && opens(trial);
        std::error_code ec;
        fs::remove(copy, ec);
        return ok;
    };
    std::size_t hi = ends.size();  // candidates [0, hi) are still untried
    for (std::size_t i = 0; i < kLinearCutTries && hi > 0; ++i) {
        --hi;
        if (accepted(ends[hi])) return ends[hi];
    }
    // A file damaged far from its end: every whole packet before the damage is accepted and no
    // prefix past it is, so the search halves the rest.
    std::uint64_t best = 0;
    std::size_t lo = 0;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (accepted(ends[mid])) {
            best = ends[mid];
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return best;
}

Error loss(const fs::path& stream, std::uint64_t size, std::uint64_t kept) {
    const std::string bytes = std::to_string(size);
    std::string what;
    if (kept == 0) {
        what =
            "libbabeltrace2 cannot index this data stream file and no whole packet of it was "
            "found: the file (" +
            bytes +
            " bytes) was left out, the trace's other streams "
            "were read";
    } else {
        what =
            "the data stream file ends inside a packet (or a packet is damaged): "
            "libbabeltrace2 cannot index it whole, so it was read up to the end of its last "
            "whole packet at byte " +
            std::to_string(kept) + "; the " + std::to_string(size - kept) +
            " bytes from there to the file's end at byte " + bytes + " were not read";
    }
    // Malformed: libbabeltrace2 refused a packet, and whether the file was cut inside it or the
    // packet is damaged, the repair cannot tell (the message names both).
    Error e = Error::at(ErrorKind::Malformed, std::move(what));
    e.input = stream.string();
    e.offset = kept;
    e.record = "CTF packet";
    return e;
}

}  // namespace

std::vector<std::uint64_t> packet_start_candidates(const fs::path& stream) {
    std::deque<std::uint64_t> starts;
    wire::UniqueFd fd(::open(stream.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) return {};
    // Each block is scanned with the last bytes of the one before it, so a magic that straddles
    // two blocks is found.
    std::vector<std::uint8_t> buf(kScanBlock + kMagicBytes - 1);
    std::size_t carried = 0;
    std::uint64_t base = 0;  // file offset of buf[0]
    for (;;) {
        const ssize_t n = ::read(fd.get(), buf.data() + carried, kScanBlock);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return {};
        const std::size_t have = carried + static_cast<std::size_t>(n);
        if (n == 0) {
            // The file's end cuts a magic short: a packet started there.
            for (std::size_t k = std::min(have, kMagicBytes - 1); k > 0; --k) {
                if (starts_magic(buf.data() + have - k, k)) {
                    starts.push_back(base + have - k);
                    break;
                }
            }
            break;
        }
        for (std::size_t i = 0; i + kMagicBytes <= have; ++i) {
            if (!starts_magic(buf.data() + i, kMagicBytes) || base + i == 0) continue;
            starts.push_back(base + i);
            if (starts.size() > kMaxPacketStarts) starts.pop_front();
        }
        const std::size_t keep = std::min(have, kMagicBytes - 1);
        std::copy(buf.begin() + static_cast<std::ptrdiff_t>(have - keep),
                  buf.begin() + static_cast<std::ptrdiff_t>(have), buf.begin());
        base += have - keep;
        carried = keep;
    }
    return {starts.begin(), starts.end()};
}

std::optional<RepairedTrace> repair_trace(const fs::path& trace, const fs::path& view,
                                          const TraceOpens& opens) {
    std::error_code ec;
    const fs::path trial = view.string() + ".trial";
    const auto none = [&] {
        fs::remove_all(trial, ec);
        fs::remove_all(view, ec);
        return std::nullopt;
    };
    if (!fs::create_directory(view, ec) || !fs::create_directory(trial, ec)) return none();
    if (!link_to(trace / "metadata", view / "metadata") ||
        !link_to(trace / "metadata", trial / "metadata") || !opens(trial))
        return none();
    RepairedTrace repaired{view, {}};
    for (const auto& stream : stream_files(trace)) {
        const fs::path name = stream.filename();
        const bool whole = link_to(stream, trial / name) && opens(trial);
        fs::remove(trial / name, ec);
        if (whole) {
            link_to(stream, view / name);
            // LTTng's index of the file, which spares libbabeltrace2 reading every packet.
            const fs::path index = trace / "index" / (name.string() + ".idx");
            if (fs::is_regular_file(index, ec)) {
                fs::create_directory(view / "index", ec);
                link_to(index, view / "index" / index.filename());
            }
            continue;
        }
        std::error_code size_ec;
        const std::uint64_t size = fs::file_size(stream, size_ec);
        const std::uint64_t kept = last_whole_packet_end(stream, trial, opens);
        if (kept > 0 && !copy_prefix(stream, view / name, kept)) return none();
        repaired.losses.push_back(loss(stream, size_ec ? kept : size, kept));
    }
    if (repaired.losses.empty()) return none();
    fs::remove_all(trial, ec);
    return repaired;
}

}  // namespace apcgate::collectors::ctf
