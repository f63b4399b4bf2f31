// Feeds arbitrary bytes to the command reader in arbitrary chunks (the first input byte picks
// the chunk size): it must never crash, never read past its input and never buffer more than
// one bounded command.
#include <cstddef>
#include <cstdint>
#include <span>

#include "protocol/gator/command_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::size_t chunk = 1 + data[0] % 64;
    std::span<const std::uint8_t> input(data + 1, size - 1);
    apcgate::gator::CommandReader reader;
    while (!input.empty()) {
        auto piece = input.first(std::min(chunk, input.size()));
        input = input.subspan(piece.size());
        while (!piece.empty()) {
            std::size_t used = 0;
            auto item = reader.parse(piece, used);
            if (used > piece.size()) __builtin_trap();
            piece = piece.subspan(used);
            if (item.kind == apcgate::gator::CommandReader::Kind::Error) return 0;
            if (item.kind == apcgate::gator::CommandReader::Kind::Command &&
                item.command.body.size() > apcgate::gator::kMaxCommandBody)
                __builtin_trap();
            if (item.kind == apcgate::gator::CommandReader::Kind::NeedMore) break;
        }
    }
    (void)reader.at_eof();
    return 0;
}
