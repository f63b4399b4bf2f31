// A read-only memory mapping of a whole file (RAII): large captures and traces are read in place
// instead of being copied into memory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>

#include "protocol/wire/result.hpp"

namespace apcgate::daemon {

class MappedFile {
public:
    static Result<MappedFile> open(const std::filesystem::path& path);
    MappedFile(MappedFile&& o) noexcept;
    MappedFile& operator=(MappedFile&& o) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();

    [[nodiscard]] std::span<const std::uint8_t> bytes() const { return {data_, size_}; }

private:
    MappedFile(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace apcgate::daemon
