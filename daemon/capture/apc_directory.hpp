// The local-capture sink: an `.apc` directory as the seed's "Local Capture" describes it —
// captured.xml, session.xml, events.xml and 0000000000, the APC data as [int32 LE length][frame
// body] records. XML documents are written whole (temporary file, then rename). Small frames
// wait in a buffer that each flush (the live rate's) writes with one write(); a large one goes
// out at once with what waits before it, in one writev(). So a capture killed at any moment is
// readable up to its last flush. An existing directory is refused unless `force`; even then only
// the files named above are replaced and nothing else is deleted.
//
// Why the data file is handled so: a converter writes hundreds of MB at once, and two kernel
// costs then rival the conversion itself. Truncating an old capture's data file frees its page
// cache, which takes a while for a large file, so the old file is moved aside and deleted on a
// thread of its own while the new one is written. A Synced capture (a recording: what it saw
// happens once) ends with fsync(), which waits for the whole file to reach the disk, so its
// writeback is started every few MiB and runs while the capture goes on. A Cached one (a
// conversion: its input is still there) is left to the kernel's writeback, as cp or llvm-xray
// leave theirs: fsync and the early writeback would make a conversion wait for the disk
// (docs/performance.md). A Cached capture also reserves the data file's disk space ahead of its
// end (a quarter of its size, at most 8 MiB), which spares the filesystem's per-page block
// reservation (reserve()), and gives back what is left past the end at the finish. A Synced one
// reserves nothing: written at a live rate it would save nothing, and a recorder killed with
// SIGKILL would keep that space allocated past the file's end until the file is deleted.
// With `force`, an old capture's statistics.json is deleted at once: it would describe the old
// capture if the new one ended before writing its own.
#pragma once

#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "daemon/capture/capture_sink.hpp"
#include "protocol/wire/result.hpp"
#include "protocol/wire/unique_fd.hpp"

namespace apcgate::daemon {

inline constexpr std::string_view kApcDataFile = "0000000000";
// What apcgate counted while it made the capture (statistics_file.hpp), written at its end.
// Not part of the APC format: Streamline reads the files above and leaves this one alone.
inline constexpr std::string_view kStatisticsFile = "statistics.json";

// The three XML documents of a capture directory, written before its data.
struct CaptureDocuments {
    std::string captured;  // captured.xml: the target, the counters' keys
    std::string session;   // session.xml: the settings
    std::string events;    // events.xml: the counters' descriptions
};

// Whether finish() waits for the data file to reach the disk (see above).
enum class Durability { Synced, Cached };

class ApcDirectory final : public CaptureSink {
  public:
    // An existing `dir` without `force` is ErrorKind::Refused (the callers' exit code 4); an
    // OS failure is Io.
    static Result<std::unique_ptr<ApcDirectory>> create(const std::filesystem::path& dir,
                                                        bool force, Durability durability);
    ~ApcDirectory() override;
    ApcDirectory(const ApcDirectory&) = delete;
    ApcDirectory& operator=(const ApcDirectory&) = delete;

    // Writes `name` in the directory atomically.
    Status write_document(std::string_view name, std::string_view content);
    // Writes the three documents, each atomically; the first failure stops.
    Status write_documents(const CaptureDocuments& documents);

    void frame(std::span<const std::uint8_t> body) override;
    void flush() override;
    void finish() override;
    [[nodiscard]] std::uint64_t bytes_written() const override { return bytes_; }

    // The first write error (disk full, directory removed), if any; later frames are dropped.
    [[nodiscard]] const Status& status() const { return status_; }
    [[nodiscard]] const std::filesystem::path& path() const { return dir_; }

  private:
    ApcDirectory(std::filesystem::path dir, wire::UniqueFd data, std::thread remover,
                 Durability durability);
    // Appends `first` and then `second` to the data file.
    void write(std::span<const std::uint8_t> first, std::span<const std::uint8_t> second);
    void end_removal();
    // Reserves the data file's disk space up to `upto` and some way past it, once it is due.
    void reserve(std::uint64_t upto);
    void give_back_reserve();

    std::filesystem::path dir_;
    wire::UniqueFd data_;
    std::vector<std::uint8_t> pending_;
    std::uint64_t bytes_ = 0;
    std::uint64_t file_bytes_ = 0;  // written to the data file
    std::uint64_t writeback_ = 0;   // the file's bytes whose writeback was started
    std::uint64_t reserved_ = 0;    // the file's disk space allocated ahead (fallocate)
    bool reserving_;                // Cached only; false once fallocate failed
    std::thread remover_;           // deletes the old capture's data file, if any
    Durability durability_;
    Status status_;
};

}  // namespace apcgate::daemon
