// Writers for the Name, Proc, Backtrace, Scheduler Trace, Activity and Idle messages
// (gator-protocol-v6.8.txt, "APC Frame Format"). Layouts are given next to each writer.
#include <algorithm>

#include "protocol/apc/encoder_impl.hpp"

namespace apcgate::apc {

using detail::MessageBuf;
using detail::OpenFrame;
using detail::packed_size;

namespace {
std::size_t string_size(std::string_view s) {
    return packed_size(static_cast<std::int64_t>(s.size())) + s.size();
}
}  // namespace

// Name frame, Cookie Name: [1][cookie][name].
bool Encoder::Impl::add(const model::CookieName& e) {
    OpenFrame& f = cored(FrameType::Name, e.core);
    MessageBuf m;
    m.p32(1);
    m.p32(e.cookie);
    const std::string_view name = fit_string(f, m.size(), e.name);
    make_room(f, m.size() + string_size(name));
    f.append(m);
    write_string(f, name);
    return true;
}

// Name frame, Thread Name: [2][timestamp][tid][name].
bool Encoder::Impl::add(const model::ThreadName& e) {
    OpenFrame& f = cored(FrameType::Name, e.core);
    MessageBuf m;
    m.p32(2);
    m.p64(order(f, e.ts));
    m.p32(e.tid);
    const std::string_view name = fit_string(f, m.size(), e.name);
    make_room(f, m.size() + string_size(name));
    f.append(m);
    write_string(f, name);
    return true;
}

// Proc frame, Comm: [pid][tid][image][comm]. When both strings cannot fit an empty frame, the
// shorter keeps its length if it is under half the room and the longer gets the rest.
bool Encoder::Impl::add(const model::ProcComm& e) {
    OpenFrame& f = cored(FrameType::Proc, e.core);
    MessageBuf m;
    m.p32(e.pid);
    m.p32(e.tid);
    std::string_view image = e.image;
    std::string_view comm = e.comm;
    const std::size_t room = cap - f.header_size - m.size();
    if (string_size(image) + string_size(comm) > room) {
        // Each length prefix is at most as long as that of `room`.
        const std::size_t bytes = room - 2 * packed_size(static_cast<std::int64_t>(room));
        const std::size_t half = bytes / 2;
        std::size_t image_max = half, comm_max = bytes - half;
        if (image.size() <= half)
            comm_max = bytes - image.size();
        else if (comm.size() <= comm_max)
            image_max = bytes - comm.size();
        enc->stats_.counts[EncoderStat::TruncatedNames] +=
            (image.size() > image_max) + (comm.size() > comm_max);
        image = detail::utf8_prefix(image, image_max);
        comm = detail::utf8_prefix(comm, comm_max);
    }
    make_room(f, m.size() + string_size(image) + string_size(comm));
    f.append(m);
    write_string(f, image);
    write_string(f, comm);
    return true;
}

// Backtrace frame: [timestamp][exec cookie][pid][tid]{[cookie][offset packed64]}[1].
// The seed reserves cookie 1 for End of Message, so a stack frame whose cookie is 1 would end
// the backtrace early: it is written as -1 ("invalid cookie", offset kept) and the backtrace
// counted in truncated_backtraces. Stack frames that cannot fit an empty frame are dropped from
// the outer end (frames are innermost first).
bool Encoder::Impl::add(const model::Backtrace& e) {
    write_backtrace(e.ts, e.core, e.exec_cookie, e.pid, e.tid, e.frames);
    return true;
}

void Encoder::Impl::write_backtrace(model::Nanos ts, std::int32_t core, std::int32_t exec_cookie,
                                    std::int32_t pid, std::int32_t tid,
                                    std::span<const model::StackFrame> frames) {
    OpenFrame& f = cored(FrameType::Backtrace, core);
    MessageBuf m;
    m.p64(order(f, ts));
    m.p32(exec_cookie);
    m.p32(pid);
    m.p32(tid);
    const std::size_t room = cap - f.header_size - m.size() - 1;
    std::size_t total = 0, depth = 0;
    bool changed = false;
    for (const auto& sf : frames) {
        const std::int32_t cookie = sf.cookie == 1 ? -1 : sf.cookie;
        const std::size_t n = packed_size(cookie) + packed_size(sf.offset);
        if (total + n > room) {
            changed = true;
            break;
        }
        changed |= sf.cookie == 1;
        total += n;
        ++depth;
    }
    if (changed) ++enc->stats_.counts[EncoderStat::TruncatedBacktraces];
    make_room(f, m.size() + total + 1);
    f.append(m);
    const std::size_t start = f.body.size();
    f.body.resize(start + total + 1);
    std::uint8_t* p = f.body.data() + start;
    for (std::size_t i = 0; i < depth; ++i) {
        const auto& sf = frames[i];
        p += wire::encode_packed64(sf.cookie == 1 ? -1 : sf.cookie, p);
        p += wire::encode_packed64(sf.offset, p);
    }
    *p = 1;  // End of Message
}

// Scheduler Trace frame, Sched Switch: [1][timestamp][tid][state].
bool Encoder::Impl::add(const model::SchedSwitch& e) {
    OpenFrame& f = cored(FrameType::SchedTrace, e.core);
    MessageBuf m;
    m.p32(1);
    m.p64(order(f, e.ts));
    m.p32(e.tid);
    m.p32(static_cast<std::int32_t>(e.state));
    append(f, m);
    return true;
}

// Scheduler Trace frame, Sched Thread Exit: [2][timestamp][tid].
bool Encoder::Impl::add(const model::SchedThreadExit& e) {
    OpenFrame& f = cored(FrameType::SchedTrace, e.core);
    MessageBuf m;
    m.p32(2);
    m.p64(order(f, e.ts));
    m.p32(e.tid);
    append(f, m);
    return true;
}

// Activity frame, Link: [1][timestamp][cookie][pid][tid].
bool Encoder::Impl::add(const model::ActivityLink& e) {
    MessageBuf m;
    m.p32(1);
    m.p64(order(activity, e.ts));
    m.p32(e.cookie);
    m.p32(e.pid);
    m.p32(e.tid);
    append(activity, m);
    return true;
}

// Activity frame, Activity Switch: [2][timestamp][core][key][activity][tid][wait state].
bool Encoder::Impl::add(const model::ActivitySwitch& e) {
    MessageBuf m;
    m.p32(2);
    m.p64(order(activity, e.ts));
    m.p32(e.core);
    m.p32(e.key);
    m.p32(e.activity);
    m.p32(e.tid);
    m.p32(static_cast<std::int32_t>(e.wait));
    append(activity, m);
    return true;
}

// Activity frame, Task Exit: [3][timestamp][tid].
bool Encoder::Impl::add(const model::TaskExit& e) {
    MessageBuf m;
    m.p32(3);
    m.p64(order(activity, e.ts));
    m.p32(e.tid);
    append(activity, m);
    return true;
}

// Idle frame: [state][timestamp][core].
bool Encoder::Impl::add(const model::Idle& e) {
    MessageBuf m;
    m.p32(e.state);
    m.p64(order(idle, e.ts));
    m.p32(e.core);
    append(idle, m);
    return true;
}

}  // namespace apcgate::apc
