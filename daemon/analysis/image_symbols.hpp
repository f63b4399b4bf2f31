// Sampled addresses to function names. A Backtrace frame is (cookie, offset): the cookie's name
// is the image's path on the target and the offset a file offset in it (the perf collector's
// ip - start + pgoff). The image's ELF load segments turn the offset into an address and its
// function symbols (.symtab, else a separate debug file's, else .dynsym: the XRay reader's ELF
// code) name it. Captures from another machine: --sysroot DIR reads DIR/PATH, --binary-dir DIR
// reads DIR/BASENAME first. An image that cannot be read, or an address no symbol covers, is
// named "image+0xOFFSET"; cookie 0 is "[kernel]" and -1 (no mapping) "[unknown]". With the
// capture's kernel symbols (a Perf-framing capture's kallsyms text), cookie 0's offset is a
// kernel address, and the function holding it is "[kernel] NAME".
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "collectors/xray/elf_image.hpp"
#include "daemon/analysis/kernel_symbols.hpp"

namespace apcgate::daemon::analysis {

struct SymbolOptions {
    std::vector<std::filesystem::path> binary_dirs;  // --binary-dir
    std::filesystem::path sysroot;                   // --sysroot ("" none)
    std::vector<std::filesystem::path> debug_dirs = {"/usr/lib/debug"};
};

struct ResolvedFrame {
    std::string name;
    std::uint32_t image = 0;  // index into images() (0: none)
};

class ImageSymbols {
  public:
    explicit ImageSymbols(SymbolOptions options) : options_(std::move(options)) {
        images_.push_back({});  // index 0: no image
    }

    void name_cookie(std::int32_t cookie, std::string path);
    // The kernel's symbols (empty unless the capture carries them): KernelSymbols::parse adds.
    KernelSymbols& kernel_symbols() { return kernel_; }
    [[nodiscard]] const KernelSymbols& kernel_symbols() const { return kernel_; }
    ResolvedFrame resolve(std::int32_t cookie, std::int64_t offset);

    struct Image {
        std::string path;                 // as the capture names it
        std::filesystem::path read_from;  // the file whose symbols were read ("" none)
        bool loaded = false;              // tried
        std::vector<collectors::xray::LoadSegment> segments;
        std::vector<collectors::xray::ElfSymbol> functions;  // sorted by address
        std::uint64_t resolved = 0, unresolved = 0;          // frames
    };
    [[nodiscard]] const std::vector<Image>& images() const { return images_; }
    // Images whose file could not be read, for the report's notes.
    [[nodiscard]] std::vector<std::string> unreadable() const;

  private:
    void load(Image& img);
    std::uint32_t image_index(std::int32_t cookie);

    SymbolOptions options_;
    std::vector<Image> images_;
    std::map<std::string, std::uint32_t> by_path_;
    std::unordered_map<std::int32_t, std::uint32_t> by_cookie_;
    KernelSymbols kernel_;
};

}  // namespace apcgate::daemon::analysis
