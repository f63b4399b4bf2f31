// The events of one kind, copied out of a capture's or a source's event list.
#pragma once

#include <variant>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::collectors::perf::testing {

template <class T>
std::vector<T> all_of(const std::vector<model::Event>& events) {
    std::vector<T> out;
    for (const auto& e : events)
        if (const T* v = std::get_if<T>(&e)) out.push_back(*v);
    return out;
}

}  // namespace apcgate::collectors::perf::testing
