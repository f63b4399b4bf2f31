// An independent walk over an FXT archive, written from the Fuchsia trace format spec and sharing
// nothing with collectors/fxt: it reads each record's header word (type in bits 0..3, size in
// 8-byte words in bits 4..15, or 4..35 for a large record) and steps over the record, naming it
// by the header's type fields alone:
//   0 metadata:   [16..19] 1 provider info, 2 provider section, 3 provider event, 4 trace info
//                 ([20..23] 0: the magic number record)
//   1 initialization, 2 string, 3 thread, 5 blob, 6 userspace object, 7 kernel object, 9 log
//   4 event:      [16..19] 0 instant, 1 counter, 2..4 duration begin/end/complete,
//                 5..7 async begin/instant/end, 8..10 flow begin/step/end
//   8 scheduling: [60..63] 0 the context switch layout of the spec, 1 context switch,
//                 2 thread wakeup, 3 fiber switch (fxt-cpp's)
//   15 large:     [36..39] 0 large blob
// It stops at a record of size 0 (no progress is possible) or one that runs past the end.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace apcgate::reference_test {

struct FxtWalk {
    std::map<std::string, std::uint64_t> records;  // the walker's name -> count
    std::optional<std::uint64_t> stopped_at;       // offset of the record it could not step over
    bool big_endian = false;                       // from the magic number record
};

FxtWalk walk_fxt(const std::filesystem::path& archive);

}  // namespace apcgate::reference_test
