// The sockets API takes every address as a `sockaddr*` beside its length, and the kernel reads
// the family's own struct (sockaddr_in, sockaddr_in6, sockaddr_un, sockaddr_storage) behind it.
// That pointer is the one cast the sockets calls need, kept here; a family's struct is read out
// of a sockaddr_storage by copying it (family_address).
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <concepts>
#include <cstring>

namespace apcgate::wire {

template <typename A>
concept SocketAddress = std::same_as<A, sockaddr_in> || std::same_as<A, sockaddr_in6> ||
    std::same_as<A, sockaddr_un> || std::same_as<A, sockaddr_storage>;

// For connect(), bind(), sendto().
template <SocketAddress A>
const sockaddr* sockaddr_of(const A& address) {
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): see the top of the file
    return reinterpret_cast<const sockaddr*>(&address);
}

// For the calls that fill one in: getsockname(), recvfrom(), accept().
template <SocketAddress A>
sockaddr* sockaddr_of(A& address) {
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): see the top of the file
    return reinterpret_cast<sockaddr*>(&address);
}

// The family's struct in `storage` (whose ss_family the caller checked), copied out.
template <SocketAddress A>
A family_address(const sockaddr_storage& storage) {
    static_assert(sizeof(A) <= sizeof(sockaddr_storage));
    A address{};
    std::memcpy(&address, &storage, sizeof address);
    return address;
}

}  // namespace apcgate::wire
