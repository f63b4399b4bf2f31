// What the benchmarks that write a capture share: a fresh .apc directory per iteration, made
// and removed outside the timing, written as `convert` writes it.
#pragma once

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "daemon/capture/apc_directory.hpp"

namespace apcgate::bench {

// A fresh .apc directory per iteration, as a user's conversion writes (a directory that holds
// an old capture costs more: its page cache is freed); removed afterwards.
class ScratchCapture {
  public:
    ScratchCapture()
        : dir_(std::filesystem::temp_directory_path() /
               ("apcgate-bench-" + std::to_string(::getpid()) + ".apc")) {
        std::filesystem::remove_all(dir_);
    }
    ~ScratchCapture() { std::filesystem::remove_all(dir_); }
    ScratchCapture(const ScratchCapture&) = delete;
    ScratchCapture& operator=(const ScratchCapture&) = delete;
    [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }

  private:
    std::filesystem::path dir_;
};

// One iteration's writing into a fresh .apc directory, made and removed outside the timing
// (removing frees the last one's page cache); false when the directory failed.
template <typename Write>
bool into_fresh_capture(benchmark::State& state, Write write) {
    state.PauseTiming();
    auto scratch = std::make_unique<ScratchCapture>();
    state.ResumeTiming();
    // As `convert` makes it.
    auto dir = daemon::ApcDirectory::create(scratch->dir(), false, daemon::Durability::Cached);
    if (!dir) {
        state.SkipWithError(dir.error().to_string().c_str());
        return false;
    }
    write(**dir);
    state.PauseTiming();
    const bool ok = static_cast<bool>((*dir)->status());
    if (!ok) state.SkipWithError((*dir)->status().error().to_string().c_str());
    dir->reset();
    scratch.reset();
    state.ResumeTiming();
    return ok;
}

}  // namespace apcgate::bench
