// Finding CTF traces on disk. A CTF trace is a directory holding a `metadata` file (CTF 1.8
// section 7: TSDL text that starts with "/* CTF", or metadata packets starting with the magic
// 0x75d11d57, section 7.2) and its data stream files. LTTng writes a session as a tree of such
// directories (kernel/, ust/uid/1000/64-bit/, ...), so a parent directory stands for every trace
// below it. The walk is bounded so a hostile tree cannot make it run forever.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "protocol/wire/result.hpp"

namespace apcgate::collectors::ctf {

inline constexpr int kMaxTreeDepth = 8;
inline constexpr std::size_t kMaxTraces = 1024;
inline constexpr std::size_t kMaxEntriesVisited = 100000;

// True when `head` (the first bytes of a metadata file) is CTF metadata text or packets.
bool looks_like_metadata(std::span<const std::uint8_t> head);

// True when `dir` holds a `metadata` file that looks like CTF metadata.
bool is_trace_dir(const std::filesystem::path& dir);

// True when `root` is, or holds at some depth, a trace directory (stops at the first found).
bool has_trace_below(const std::filesystem::path& root);

// The trace directories at or below `root`, sorted; a trace directory is not searched further.
// An error when `root` cannot be read or holds no trace.
Result<std::vector<std::filesystem::path>> find_traces(const std::filesystem::path& root);

// The data stream files of a trace (every regular file but `metadata`; not the index/ folder),
// with their total size: what progress is measured against.
std::uint64_t stream_bytes(const std::filesystem::path& trace_dir);

// A hash of every file's path, size and modification time at or below `root` (bounded like
// find_traces()): it changes when a tracer adds, grows or rewrites any file of the traces.
std::uint64_t tree_fingerprint(const std::filesystem::path& root);

}  // namespace apcgate::collectors::ctf
