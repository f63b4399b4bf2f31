#include "collectors/barman/store_geometry.hpp"

#include "collectors/barman/record_kinds.hpp"

namespace apcgate::collectors::barman {
namespace {

Error store_error(ErrorKind kind, std::string message, std::uint64_t offset, const char* field) {
    Error e = Error::at(kind, std::move(message));
    e.offset = offset;
    e.record = std::string(kind::kHeader);
    e.field = field;
    return e;
}

std::string n(std::uint64_t v) {
    return std::to_string(v);
}

// Bytes of the circular store's ring that hold records. Agents write monotonic counts
// (write - read); a writer that follows the spec's prose literally may store physical offsets,
// where write < read means the data wraps.
std::uint64_t ring_length(const DataStore& s, const Header& h, std::vector<Error>& problems) {
    const std::uint64_t len = s.buffer_length;
    if (s.write_offset >= s.read_offset && s.write_offset - s.read_offset <= len)
        return s.write_offset - s.read_offset;
    if (s.write_offset < s.read_offset && s.read_offset < len)
        return len - s.read_offset + s.write_offset;
    problems.push_back(
        store_error(ErrorKind::Malformed,
                    "read_offset " + n(s.read_offset) + " and write_offset " + n(s.write_offset) +
                        " describe more than the circular store's " + n(len) + " bytes",
                    h.data_store_offset + 8, "write_offset"));
    const std::uint64_t r = s.read_offset % len, w = s.write_offset % len;
    return w > r ? w - r : len - r + w;
}

}  // namespace

StoreGeometry plan_store(const Header& h, std::uint64_t file_size, std::vector<Error>& problems) {
    const DataStore& s = h.store;
    StoreGeometry g;
    g.area = s.record_area;
    g.buffer_length = s.buffer_length;
    g.circular = s.type == StoreType::Circular;
    g.evicted = s.read_offset != 0;
    // How much of the record area the file really holds (a dump may stop early).
    const std::uint64_t in_file = file_size > g.area ? file_size - g.area : 0;
    if (!g.circular) {
        std::uint64_t read = s.read_offset, write = s.write_offset;
        if (write > s.buffer_length) {
            problems.push_back(store_error(
                ErrorKind::Malformed,
                "write_offset " + n(write) + " is past buffer_length " + n(s.buffer_length),
                h.data_store_offset + 8, "write_offset"));
            write = s.buffer_length;
        }
        if (read > write) {
            problems.push_back(
                store_error(ErrorKind::Malformed,
                            "read_offset " + n(read) + " is past write_offset " + n(write),
                            h.data_store_offset + 16, "read_offset"));
            read = write;
        }
        g.start = read;
        g.data_length = write - read;
        if (g.start + g.data_length > in_file) {
            g.truncated = store_error(ErrorKind::Truncated,
                                      "the file ends at byte " + n(file_size) +
                                          ", inside the record data that runs to byte " +
                                          n(g.area + g.start + g.data_length),
                                      file_size, "write_offset");
            g.data_length = in_file > g.start ? in_file - g.start : 0;
        }
        return g;
    }
    if (s.buffer_length == 0) {
        if (s.write_offset != s.read_offset)
            problems.push_back(store_error(ErrorKind::Malformed,
                                           "a circular store with buffer_length 0 cannot hold data",
                                           h.data_store_offset, "buffer_length"));
        return g;
    }
    g.start = s.read_offset % s.buffer_length;
    g.wrap = s.buffer_length - g.start;
    g.data_length = ring_length(s, h, problems);
    if (s.buffer_length > in_file) {
        // The physical tail of the ring is missing, and logical bytes run from `start` to the
        // physical end first: only those the file still holds can be read.
        const std::uint64_t readable = in_file > g.start ? in_file - g.start : 0;
        if (readable < g.data_length) {
            g.truncated = store_error(ErrorKind::Truncated,
                                      "the file ends at byte " + n(file_size) + ", inside the " +
                                          n(s.buffer_length) +
                                          "-byte circular store that starts at byte " + n(g.area),
                                      file_size, "buffer_length");
            g.data_length = readable;
        }
    }
    return g;
}

}  // namespace apcgate::collectors::barman
