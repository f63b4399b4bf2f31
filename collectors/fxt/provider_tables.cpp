#include "collectors/fxt/provider_tables.hpp"

#include <cstdint>

namespace apcgate::collectors::fxt {

namespace {
__extension__ using Uint128 = unsigned __int128;  // ticks * 1e9 needs more than 64 bits
}

std::string_view ProviderTables::object(std::uint64_t pointer) const {
    auto it = objects_.find(pointer);
    return it == objects_.end() ? std::string_view{} : it->second;
}

void ProviderTables::apply(const Record& record) {
    if (const auto* s = std::get_if<StringRecord>(&record)) {
        if (s->index != 0) strings_.set(s->index, s->text);  // index 0 is the empty string
    } else if (const auto* t = std::get_if<ThreadRecord>(&record)) {
        if (t->index != 0) threads_.set(t->index, t->thread);  // 0 denotes an inline thread
    } else if (const auto* i = std::get_if<InitializationRecord>(&record)) {
        if (i->ticks_per_second != 0) {
            ticks_per_second_ = i->ticks_per_second;
            per_second_ = libdivide::libdivide_u64_gen(ticks_per_second_);
        }
    } else if (const auto* o = std::get_if<UserspaceObjectRecord>(&record)) {
        objects_[o->pointer] = o->name;
    }
}

void ProviderTables::reset() {
    *this = ProviderTables{};
}

std::optional<model::Nanos> ProviderTables::to_ns_wide(std::uint64_t ticks) const {
    const std::uint64_t tps = ticks_per_second_;
    if (tps <= UINT64_MAX / kDefaultTicksPerSecond) {
        // Whole seconds and the remainder apart: two 64-bit divisions instead of a 128-bit one.
        const std::uint64_t rest = (ticks % tps) * kDefaultTicksPerSecond / tps;
        std::uint64_t ns = 0;
        if (__builtin_mul_overflow(ticks / tps, kDefaultTicksPerSecond, &ns) ||
            __builtin_add_overflow(ns, rest, &ns) || ns > kMaxNs) {
            return std::nullopt;
        }
        return static_cast<model::Nanos>(ns);
    }
    const Uint128 ns = Uint128{ticks} * kDefaultTicksPerSecond / tps;
    if (ns > kMaxNs) return std::nullopt;
    return static_cast<model::Nanos>(ns);
}

}  // namespace apcgate::collectors::fxt
