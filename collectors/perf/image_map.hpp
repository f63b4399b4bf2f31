// Cookies and address spaces: what turns a sampled address into the (cookie, offset) pair of a
// Backtrace frame (gator-protocol-v6.8.txt, "Backtrace Frame Messages", "Cookie Name Message").
// A cookie stands for one executable or library path and is named once per capture; an address
// inside a mapping of that file becomes its file offset (ip - start + pgoff), which a symbol
// table resolves through the ELF program headers. Both tables are bounded.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::perf {

// Cookie 0 is the kernel (and idle), -1 an address no mapping explains, 1 is reserved.
inline constexpr std::int32_t kKernelCookie = 0;
inline constexpr std::int32_t kUnknownCookie = -1;

class CookieTable {
  public:
    static constexpr std::size_t kMaxCookies = 1u << 16;

    // The cookie of an image path (assigned on first sight, from 2 up); kUnknownCookie when the
    // table is full or the path is empty.
    std::int32_t cookie(const std::string& image);
    // Appends a CookieName the first time a cookie is used in this capture.
    void announce(std::int32_t cookie, model::Nanos ts, std::int32_t core,
                  std::vector<model::Event>& out);
    [[nodiscard]] std::size_t size() const { return names_.size(); }

  private:
    std::unordered_map<std::string, std::int32_t> by_name_;
    std::vector<std::string> names_;  // index = cookie - 2
    std::vector<bool> announced_;
};

struct Mapping {
    std::uint64_t start = 0, end = 0;  // [start, end)
    std::uint64_t pgoff = 0;           // file offset of `start`
    std::int32_t cookie = kUnknownCookie;
};

class AddressSpace {
  public:
    static constexpr std::size_t kMaxMappings = 1u << 16;

    // Adds a mapping; whatever it overlaps is cut away, as mmap(MAP_FIXED) would. Ignored when
    // empty, wrapping, or the table is full.
    void map(std::uint64_t start, std::uint64_t len, std::uint64_t pgoff, std::int32_t cookie);
    // (cookie, file offset) of an address, if a mapping covers it.
    [[nodiscard]] std::optional<model::StackFrame> resolve(std::uint64_t ip) const;
    void clear() { maps_.clear(); }
    [[nodiscard]] std::size_t size() const { return maps_.size(); }

  private:
    std::map<std::uint64_t, Mapping> maps_;  // by start
};

}  // namespace apcgate::collectors::perf
