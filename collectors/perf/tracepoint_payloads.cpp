#include "collectors/perf/tracepoint_payloads.hpp"

#include <algorithm>
#include <charconv>

#include "protocol/wire/byte_reader.hpp"

namespace apcgate::collectors::perf {
namespace {

Result<TracepointField> need(const TracepointFormat& f, std::string_view name, bool is_string) {
    const TracepointField* field = f.field(name);
    if (field == nullptr)
        return Error::at(ErrorKind::Unsupported,
                         "tracepoint " + f.name + " has no field " + std::string(name));
    const bool ok =
        is_string ? (!field->data_loc && field->size > 0 && field->size <= 256)
                  : (field->size == 1 || field->size == 2 || field->size == 4 || field->size == 8);
    if (!ok)
        return Error::at(ErrorKind::Unsupported,
                         "tracepoint " + f.name + " field " + std::string(name) +
                             " has an unexpected size " + std::to_string(field->size));
    return *field;
}

std::int64_t read_int(wire::ByteReader& r, const TracepointField& f) {
    r.seek(f.offset);
    const std::uint64_t v = r.uint(f.size, f.name);
    if (!f.is_signed || f.size == 8) return static_cast<std::int64_t>(v);
    const unsigned shift = 64 - 8 * f.size;  // sign-extend
    return static_cast<std::int64_t>(v << shift) >> shift;
}

std::string read_chars(wire::ByteReader& r, const TracepointField& f) {
    r.seek(f.offset);
    const auto bytes = r.bytes(f.size, f.name);
    const auto nul = std::find(bytes.begin(), bytes.end(), std::uint8_t{0});
    return std::string(bytes.begin(), nul);
}

}  // namespace

std::uint64_t highest_print_flag(std::string_view fmt) {
    std::uint64_t best = 0;
    for (std::size_t at = fmt.find("{ 0x"); at != std::string_view::npos;
         at = fmt.find("{ 0x", at + 1)) {
        const char* begin = fmt.data() + at + 4;
        std::uint64_t v = 0;
        auto [p, ec] = std::from_chars(begin, fmt.data() + fmt.size(), v, 16);
        if (ec == std::errc() && p != begin) best = std::max(best, v);
    }
    return best;
}

Result<SchedSwitchLayout> SchedSwitchLayout::from(const TracepointFormat& format) {
    SchedSwitchLayout l;
    const std::pair<TracepointField*, std::pair<const char*, bool>> wanted[] = {
        {&l.prev_comm_, {"prev_comm", true}},
        {&l.prev_pid_, {"prev_pid", false}},
        {&l.prev_state_, {"prev_state", false}},
        {&l.next_comm_, {"next_comm", true}},
        {&l.next_pid_, {"next_pid", false}}};
    for (const auto& [slot, spec] : wanted) {
        auto f = need(format, spec.first, spec.second);
        if (!f) return std::move(f).take_error();
        *slot = std::move(f).value();
    }
    const std::uint64_t top = highest_print_flag(format.print_fmt);
    l.preempt_bit_ = top != 0 && top < (1ull << 62) ? top << 1 : 0;
    return l;
}

Result<SchedSwitchFields> SchedSwitchLayout::decode(std::span<const std::uint8_t> raw,
                                                    std::uint64_t offset,
                                                    std::string_view input) const {
    wire::ByteReader r(raw, wire::Endian::Little, offset, std::string(input));
    r.set_record("sched:sched_switch");
    SchedSwitchFields s;
    s.prev_comm = read_chars(r, prev_comm_);
    s.prev_tid = static_cast<std::int32_t>(read_int(r, prev_pid_));
    s.prev_state = read_int(r, prev_state_);
    s.next_comm = read_chars(r, next_comm_);
    s.next_tid = static_cast<std::int32_t>(read_int(r, next_pid_));
    if (!r.ok()) return r.take_error();
    return s;
}

model::WaitState SchedSwitchLayout::wait_state(std::int64_t prev_state) const {
    const auto s = static_cast<std::uint64_t>(prev_state);
    if (preempt_bit_ != 0 && (s & preempt_bit_) != 0) return model::WaitState::Contention;
    const std::uint64_t states = s & (preempt_bit_ != 0 ? preempt_bit_ - 1 : 0xff);
    if (states == 0) return model::WaitState::Contention;  // R: switched out while runnable
    if ((states & kTaskUninterruptible) != 0) return model::WaitState::Io;
    return model::WaitState::Other;
}

Result<CpuIdleLayout> CpuIdleLayout::from(const TracepointFormat& format) {
    CpuIdleLayout l;
    auto state = need(format, "state", false);
    if (!state) return std::move(state).take_error();
    auto cpu = need(format, "cpu_id", false);
    if (!cpu) return std::move(cpu).take_error();
    l.state_ = std::move(state).value();
    l.cpu_ = std::move(cpu).value();
    return l;
}

Result<CpuIdleFields> CpuIdleLayout::decode(std::span<const std::uint8_t> raw, std::uint64_t offset,
                                            std::string_view input) const {
    wire::ByteReader r(raw, wire::Endian::Little, offset, std::string(input));
    r.set_record("power:cpu_idle");
    r.seek(state_.offset);
    const std::uint64_t state = r.uint(state_.size, "state");
    r.seek(cpu_.offset);
    const std::uint64_t cpu = r.uint(cpu_.size, "cpu_id");
    if (r.ok() && cpu > 0xffff) r.fail("cpu_id " + std::to_string(cpu) + " out of range", "cpu_id");
    if (!r.ok()) return r.take_error();
    CpuIdleFields f;
    // PWR_EVENT_EXIT is (u32)-1; any other value is the idle state entered.
    f.state = state >= 0xffffffffu
                  ? -1
                  : static_cast<std::int32_t>(std::min<std::uint64_t>(state, 0x7fffffff));
    f.cpu = static_cast<std::int32_t>(cpu);
    return f;
}

}  // namespace apcgate::collectors::perf
