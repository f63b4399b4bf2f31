#include "convert_run.hpp"

#include <gtest/gtest.h>

#include "daemon_process.hpp"

namespace apcgate::xray_test {

using e2e::run_apcgate;

ScratchDir::ScratchDir(const std::string& name) : path(e2e::temp_dir(name)) {}

ScratchDir::~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
}

nlohmann::json json_of(const std::string& output) {
    const auto start = output.find('{');
    return nlohmann::json::parse(output.substr(start == std::string::npos ? 0 : start), nullptr,
                                 false);
}

Spans convert_and_read(const std::vector<std::string>& inputs, const std::string& binary,
                       nlohmann::json* report, int want_exit, nlohmann::json* inspect) {
    const ScratchDir dir("xray");
    const auto out = dir.path / "out.apc";
    std::vector<std::string> args{"convert"};
    args.insert(args.end(), inputs.begin(), inputs.end());
    args.insert(args.end(), {"-o", out.string(), "--json"});
    if (!binary.empty()) args.insert(args.end(), {"--binary", binary});
    const auto [rc, output] = run_apcgate(args);
    EXPECT_EQ(rc, want_exit) << output;
    if (report) *report = json_of(output);
    const auto [irc, inspected] = run_apcgate({"inspect", out.string(), "--json"});
    EXPECT_EQ(irc, 0) << inspected;
    const auto ij = json_of(inspected);
    EXPECT_TRUE(ij.value("valid", false)) << inspected;
    if (inspect) *inspect = ij;
    const auto content = read_capture(out.string());
    EXPECT_TRUE(content.error.empty()) << content.error;
    return spans_of(content.events);
}

}  // namespace apcgate::xray_test
