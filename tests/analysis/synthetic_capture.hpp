// Captures made in the test from model events, for diffs whose difference is known exactly:
// the XML documents of a real capture (`like`) with a data file the encoder writes from
// `events`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "protocol/model/event.hpp"

namespace apcgate::analysis_test {

void write_capture(const std::filesystem::path& like, const std::filesystem::path& dir,
                   const std::vector<model::Event>& events);

// `count` spans of `duration_ns` each, named `name`, on channel `channel`, one after another
// from `start`; appended to `events`.
void add_spans(std::vector<model::Event>& events, const std::string& name, std::int32_t channel,
               std::int64_t start, std::int64_t duration_ns, int count);

}  // namespace apcgate::analysis_test
