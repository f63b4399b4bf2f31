// The events a chunk frame carries (the "event" grammar in worker_frames.hpp), described once for
// both directions: each kind's tag and its fields in order. The encoder walks a description with
// a writer, the decoder with a reader (a bounds-checked wire::ByteReader underneath), so the two
// sides cannot drift apart field by field.
//
// An `Io` offers i32/i64/key/wait/color/str(value, field name); the writer's take values, the
// reader's take references it fills. Annotations share a head (ts core tid) and differ by body.
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>

#include "protocol/model/event.hpp"
#include "protocol/wire/type_index.hpp"

namespace apcgate::collectors::ctf::event_fields {

// The event kinds with a tag of their own, and the annotation bodies, in tag order from 1.
using Events = std::tuple<model::CounterSample, model::ActivitySwitch, model::ThreadName,
                          model::ProcComm, model::TaskExit, model::SchedSwitch>;
using Bodies = std::tuple<model::StringAnnotation, model::MarkerAnnotation, model::GroupName,
                          model::ChannelName>;

template <typename T, typename Tuple>
constexpr bool kIsIn = wire::TypeIndex<T, Tuple>::kFound;

template <typename T>
constexpr std::uint8_t tag_of() {
    if constexpr (kIsIn<T, Events>) {
        return static_cast<std::uint8_t>(1 + wire::kTypeIndex<T, Events>);
    } else {
        static_assert(kIsIn<T, Bodies>, "not a frame kind");
        return static_cast<std::uint8_t>(1 + std::tuple_size_v<Events> +
                                         wire::kTypeIndex<T, Bodies>);
    }
}

// Calls f.template operator()<T>() for each type of `Tuple` (a kind list above).
template <typename Tuple, typename F>
void for_each_kind(F&& f) {
    [&f]<typename... Ts>(std::tuple<Ts...>*) {
        (f.template operator()<Ts>(), ...);
    }(static_cast<Tuple*>(nullptr));
}

// The fields of one kind (`E` const when writing). For a body, only the body's own fields: the
// annotation head goes first (head()).
template <typename Io, typename E>
void fields(Io& io, E& e) {
    using T = std::remove_const_t<E>;
    if constexpr (std::is_same_v<T, model::CounterSample>) {
        io.i64(e.ts, "ts"), io.i32(e.core, "core"), io.key(e.key, "key");
        io.i64(e.value, "value"), io.i32(e.pid, "pid");
    } else if constexpr (std::is_same_v<T, model::ActivitySwitch>) {
        io.i64(e.ts, "ts"), io.i32(e.core, "core"), io.key(e.key, "key");
        io.i32(e.activity, "activity"), io.i32(e.tid, "tid"), io.wait(e.wait, "wait");
    } else if constexpr (std::is_same_v<T, model::ThreadName>) {
        io.i64(e.ts, "ts"), io.i32(e.core, "core"), io.i32(e.tid, "tid"), io.str(e.name, "name");
    } else if constexpr (std::is_same_v<T, model::ProcComm>) {
        io.i64(e.ts, "ts"), io.i32(e.core, "core"), io.i32(e.pid, "pid"), io.i32(e.tid, "tid");
        io.str(e.image, "image"), io.str(e.comm, "comm");
    } else if constexpr (std::is_same_v<T, model::TaskExit>) {
        io.i64(e.ts, "ts"), io.i32(e.tid, "tid");
    } else if constexpr (std::is_same_v<T, model::SchedSwitch>) {
        io.i64(e.ts, "ts"), io.i32(e.core, "core"), io.i32(e.tid, "tid");
        io.wait(e.state, "state");
    } else if constexpr (std::is_same_v<T, model::StringAnnotation>) {
        io.i32(e.channel, "channel"), io.color(e.color, "color"), io.str(e.text, "text");
    } else if constexpr (std::is_same_v<T, model::MarkerAnnotation>) {
        io.color(e.color, "color"), io.str(e.text, "text");
    } else if constexpr (std::is_same_v<T, model::GroupName>) {
        io.i32(e.group, "group"), io.str(e.name, "name");
    } else {
        static_assert(std::is_same_v<T, model::ChannelName>);
        io.i32(e.channel, "channel"), io.i32(e.group, "group"), io.str(e.name, "name");
    }
}

// The head every annotation body follows.
template <typename Io, typename A>
void head(Io& io, A& a) {
    io.i64(a.ts, "ts"), io.i32(a.core, "core"), io.i32(a.tid, "tid");
}

}  // namespace apcgate::collectors::ctf::event_fields
