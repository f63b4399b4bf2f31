// Reading a whole file in the tests that run the real binary (tests/e2e, tests/service,
// tests/man): the daemon's log, and the shipped and generated files they check.
#pragma once

#include <filesystem>
#include <string>

namespace apcgate::e2e {

// The file's whole content; empty when it cannot be read, so that what a test expects of the
// content fails.
std::string read_whole_file(const std::filesystem::path& path);

}  // namespace apcgate::e2e
