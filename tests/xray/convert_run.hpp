// What the XRay end-to-end tests share: running the real `apcgate convert` in a scratch
// directory and reading back what it wrote.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "spans_from_capture.hpp"

namespace apcgate::xray_test {

// A scratch directory removed when the test is done with it.
struct ScratchDir {
    explicit ScratchDir(const std::string& name);
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    std::filesystem::path path;
};

// The JSON document in a command's output (whatever precedes its first '{' skipped).
nlohmann::json json_of(const std::string& output);

// Converts, inspects (the capture must be valid) and returns the spans of the capture.
Spans convert_and_read(const std::vector<std::string>& inputs, const std::string& binary,
                       nlohmann::json* report, int want_exit = 0,
                       nlohmann::json* inspect = nullptr);

}  // namespace apcgate::xray_test
