// The position of a type in a type list (std::variant<...>, std::tuple<...>): for tables indexed
// by an event kind and for tags numbered after a list's order. Equal to the list's size when the
// type is not in it.
#pragma once

#include <cstddef>
#include <type_traits>

namespace apcgate::wire {

template <typename T, typename List>
struct TypeIndex;

template <typename T, template <typename...> class List, typename... Ts>
struct TypeIndex<T, List<Ts...>> {
    static constexpr std::size_t kValue = [] {
        std::size_t i = 0;
        ((std::is_same_v<T, Ts> ? false : (++i, true)) && ...);
        return i;
    }();
    static constexpr bool kFound = kValue < sizeof...(Ts);
};

template <typename T, typename List>
inline constexpr std::size_t kTypeIndex = TypeIndex<T, List>::kValue;

}  // namespace apcgate::wire
