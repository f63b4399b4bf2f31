#include "collectors/ingest/timeline_placement.hpp"

#include <algorithm>
#include <map>
#include <optional>

namespace apcgate::collectors::ingest {

namespace {

std::optional<model::Nanos> checked_add(model::Nanos a, model::Nanos b) {
    model::Nanos r = 0;
    if (__builtin_add_overflow(a, b, &r) || r == kNever) return std::nullopt;
    return r;
}

// Inputs of one domain (an input without a domain is one alone).
struct Group {
    std::vector<std::size_t> members;
    std::optional<model::Nanos> to_monotonic;  // the first member's that has one
};

std::vector<Group> group_by_domain(const std::vector<TimelineInput>& inputs) {
    std::vector<Group> groups;
    std::map<std::string, std::size_t> by_domain;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const TimelineInput& in = inputs[i];
        std::size_t g = groups.size();
        if (!in.clock.domain.empty()) {
            const auto [it, added] = by_domain.emplace(in.clock.domain, groups.size());
            g = it->second;
            if (added) groups.emplace_back();
        } else {
            groups.emplace_back();
        }
        Group& group = groups[g];
        group.members.push_back(i);
        if (!group.to_monotonic) group.to_monotonic = in.clock.to_monotonic;
    }
    return groups;
}

std::string describe(const TimelineInput& in) {
    return in.clock.description.empty() ? in.label : in.label + " (" + in.clock.description + ")";
}

}  // namespace

TimelinePlacement place_on_timeline(const std::vector<TimelineInput>& inputs) {
    TimelinePlacement p;
    p.input_zero.assign(inputs.size(), 0);
    p.how.assign(inputs.size(), "");
    const std::vector<Group> groups = group_by_domain(inputs);

    // Each input's way to CLOCK_MONOTONIC: its domain's, one for all its inputs so that they
    // keep their distances exactly (several XRay logs of one machine: one TSC, while each
    // log's relation to CLOCK_MONOTONIC is good to a microsecond). One that would overflow (a
    // hostile header) counts as none.
    std::vector<std::optional<model::Nanos>> offset(inputs.size());
    for (const Group& g : groups) {
        for (std::size_t i : g.members) {
            offset[i] = g.to_monotonic;
            if (offset[i] && inputs[i].origin != kNever &&
                !checked_add(inputs[i].origin, *offset[i]))
                offset[i].reset();
        }
    }
    bool any_anchored = false;
    model::Nanos zero = kNever;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (!offset[i]) continue;
        any_anchored = true;
        if (inputs[i].origin != kNever) zero = std::min(zero, inputs[i].origin + *offset[i]);
    }
    if (any_anchored) {
        p.monotonic = true;
        p.zero = zero == kNever ? 0 : zero;
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            if (!offset[i]) continue;
            // Within range: p.zero is some input's origin + offset, this one's is checked.
            const auto z = checked_add(p.zero, -*offset[i]);
            if (!z) {
                offset[i].reset();
                continue;
            }
            p.input_zero[i] = *z;
            p.how[i] = "CLOCK_MONOTONIC";
        }
    }

    // The rest, a domain at a time: the first domain is the reference when nothing is on
    // CLOCK_MONOTONIC; any other starts at the capture's start, with a note.
    bool reference_taken = p.monotonic;
    for (const Group& g : groups) {
        std::vector<std::size_t> loose;
        for (std::size_t i : g.members)
            if (!offset[i]) loose.push_back(i);
        if (loose.empty()) continue;
        model::Nanos first = kNever;
        for (std::size_t i : loose) first = std::min(first, inputs[i].origin);
        if (first == kNever) first = 0;
        const bool reference = !reference_taken;
        if (reference) {
            reference_taken = true;
            p.zero = first;
        }
        for (std::size_t i : loose) {
            p.input_zero[i] = first;
            p.how[i] = reference ? "its own clock" : "its own clock, first event at the start";
            if (!reference)
                p.notes.push_back(describe(inputs[i]) +
                                  ": its clock has no known relation to the other inputs' clocks;"
                                  " its first event is placed at the capture's start");
        }
    }
    return p;
}

}  // namespace apcgate::collectors::ingest
