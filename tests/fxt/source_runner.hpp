// The FXT tests' use of the shared in-process runner (tests/ingest/source_runner.hpp, which
// drives a source the way `apcgate convert` does and keeps what came out): an FxtSource opened
// from a path, or from bytes written to a temporary file, with the archive reader's limits.
#pragma once

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "collectors/fxt/fxt_source.hpp"
#include "tests/ingest/source_runner.hpp"

namespace apcgate::fxt_test {

using SourceRun = ingest_test::SourceRun<collectors::fxt::FxtSource>;
using ingest_test::expect_time_order;
using ingest_test::temp_file;
using ingest_test::write_temp;

// Opens `path` and runs one capture. Never null: when the source cannot open, run_opened has
// already failed the test with the error, and the throw ends the test instead of a null deref.
inline std::unique_ptr<SourceRun> run_path(const std::filesystem::path& path,
                                           collectors::fxt::ArchiveReader::Limits limits = {},
                                           const std::vector<std::string>& enabled = {}) {
    auto run = ingest_test::run_opened(collectors::fxt::FxtSource::open(path, limits), enabled);
    if (!run) throw std::runtime_error("cannot open " + path.string());
    return run;
}

inline std::unique_ptr<SourceRun> run_bytes(const std::vector<std::uint8_t>& bytes,
                                            collectors::fxt::ArchiveReader::Limits limits = {},
                                            const std::string& name = "t.fxt") {
    return run_path(write_temp(name, bytes), limits);
}

}  // namespace apcgate::fxt_test
