// Which --binary symbolizes an XRay log when several are given (a run whose programs start
// other instrumented programs writes one log per process, each named by LLVM's runtime
// `<xray_logfile_base><program>.<6 random characters>`): the binary whose file name is the
// program part of the log's name, the longest such when names nest (`srv` and `my-srv`).
// One --binary symbolizes every log, as llvm-xray's -instr_map does. Without any, the note says
// how the calls are named and which --binary would name them.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace apcgate::collectors::xray {

struct BinaryChoice {
    std::optional<std::filesystem::path> binary;
    std::string note;  // why there is none: how to name the calls
};

BinaryChoice binary_for_log(const std::filesystem::path& log,
                            const std::vector<std::filesystem::path>& binaries);

}  // namespace apcgate::collectors::xray
