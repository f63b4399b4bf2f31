// PC addresses to (cookie, offset) through the header's mmap layouts: each distinct image name
// gets one cookie (2, 3, ...; 0 and 1 are reserved by the protocol), and an address inside a
// layout becomes its offset in that image's file (pc - base_address + image_offset). On bare
// metal all tasks usually share one address space, so a layout of the sample's own task is
// preferred but any layout holding the address will do. An address no layout holds gets the
// protocol's invalid cookie (-1) and the raw address as its offset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collectors/barman/header.hpp"

namespace apcgate::collectors::barman {

class ImageMap {
  public:
    static constexpr std::int32_t kUnknownCookie = -1;

    explicit ImageMap(const std::vector<MmapLayout>& layouts);

    struct Hit {
        std::int32_t cookie = kUnknownCookie;
        std::int64_t offset = 0;
    };
    [[nodiscard]] Hit find(std::uint64_t pc, std::optional<std::uint32_t> task) const;
    // The image name of a cookie find() returned (cookie >= 2).
    [[nodiscard]] const std::string& name(std::int32_t cookie) const;
    // One past the highest cookie find() returns.
    [[nodiscard]] std::int32_t cookie_end() const {
        return static_cast<std::int32_t>(names_.size()) + 2;
    }

  private:
    struct Range {
        std::uint64_t base = 0, length = 0, image_offset = 0;
        std::optional<std::uint32_t> task;
        std::int32_t cookie = 0;
    };
    std::vector<Range> ranges_;
    std::vector<std::string> names_;  // cookie 2 + i
};

}  // namespace apcgate::collectors::barman
