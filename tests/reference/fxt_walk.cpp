#include "fxt_walk.hpp"

#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

namespace apcgate::reference_test {

namespace {

std::uint64_t field(std::uint64_t word, unsigned first, unsigned last) {
    const unsigned width = last - first + 1;
    return width == 64 ? word : (word >> first) & ((std::uint64_t{1} << width) - 1);
}

std::uint64_t swap64(std::uint64_t v) {
    return __builtin_bswap64(v);
}

std::string metadata_name(std::uint64_t h) {
    switch (field(h, 16, 19)) {
        case 1:
            return "provider info";
        case 2:
            return "provider section";
        case 3:
            return "provider event";
        case 4:
            return field(h, 20, 23) == 0 ? "magic number" : "trace info";
        default:
            return "metadata, other";
    }
}

std::string event_name(std::uint64_t h) {
    static const char* const kNames[] = {"instant",       "counter",           "duration begin",
                                         "duration end",  "duration complete", "async begin",
                                         "async instant", "async end",         "flow begin",
                                         "flow step",     "flow end"};
    const auto t = field(h, 16, 19);
    return t < std::size(kNames) ? kNames[t] : "event, other";
}

std::string scheduling_name(std::uint64_t h) {
    switch (field(h, 60, 63)) {
        case 0:
            return "context switch, spec layout";
        case 1:
            return "context switch";
        case 2:
            return "thread wakeup";
        case 3:
            return "fiber switch";
        default:
            return "scheduling, other";
    }
}

std::string record_name(std::uint64_t h) {
    switch (field(h, 0, 3)) {
        case 0:
            return metadata_name(h);
        case 1:
            return "initialization";
        case 2:
            return "string";
        case 3:
            return "thread";
        case 4:
            return event_name(h);
        case 5:
            return "blob";
        case 6:
            return "userspace object";
        case 7:
            return "kernel object";
        case 8:
            return scheduling_name(h);
        case 9:
            return "log";
        case 15:
            return field(h, 36, 39) == 0 ? "large blob" : "large, other";
        default:
            return "record type " + std::to_string(field(h, 0, 3));
    }
}

}  // namespace

FxtWalk walk_fxt(const std::filesystem::path& archive) {
    std::ifstream in(archive, std::ios::binary);
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
    FxtWalk w;
    // The magic number record is 0x0016547846040010 in the writer's byte order.
    constexpr std::uint64_t kMagic = 0x0016547846040010ULL;
    std::size_t at = 0;
    while (at + 8 <= bytes.size()) {
        std::uint64_t h = 0;
        std::memcpy(&h, bytes.data() + at, 8);
        if (at == 0 && swap64(h) == kMagic) w.big_endian = true;
        if (w.big_endian) h = swap64(h);
        const bool large = field(h, 0, 3) == 15;
        const std::uint64_t words = large ? field(h, 4, 35) : field(h, 4, 15);
        if (words == 0 || words > (bytes.size() - at) / 8) {
            w.stopped_at = at;
            return w;
        }
        ++w.records[record_name(h)];
        at += words * 8;
    }
    if (at != bytes.size()) w.stopped_at = at;  // a partial header word at the end
    return w;
}

}  // namespace apcgate::reference_test
