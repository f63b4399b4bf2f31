// Reading what the real apcgate wrote or sent, for the perf end-to-end tests: a capture's model
// events (through the project's own frame decoder), its counter keys, the tids the workload
// reported, and small process helpers.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "events_of.hpp"
#include "protocol/apc/capture_stream.hpp"
#include "xml/documents.hpp"

namespace apcgate::collectors::perf::testing {

namespace fs = std::filesystem;

struct CaptureFiles {
    std::vector<model::Event> events;
    std::map<std::string, model::CounterKey> keys;  // counter name -> key
    std::string events_xml;
};

inline std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline CaptureFiles read_capture(const fs::path& dir) {
    CaptureFiles out;
    auto captured = xml::parse_captured(slurp(dir / "captured.xml"));
    EXPECT_TRUE(captured) << dir;
    if (captured)
        for (const auto& c : captured->counters) out.keys[c.type] = c.key;
    out.events_xml = slurp(dir / "events.xml");
    const std::string data = slurp(dir / "0000000000");
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(data.data());  // NOLINT
    apc::DecodedCapture decoded = apc::decode_capture({bytes, data.size()});
    EXPECT_FALSE(decoded.error) << decoded.error->to_string();
    auto events = apc::rebuild_events(decoded.frames);
    EXPECT_TRUE(events) << events.error().to_string();
    if (events) out.events = std::move(events).value();
    return out;
}

// "ping 123" lines from the workload's --out file.
inline std::map<std::string, int> read_tids(const fs::path& file) {
    std::map<std::string, int> out;
    std::istringstream in(slurp(file));
    std::string name;
    int tid = 0;
    while (in >> name >> tid) out[name] = tid;
    return out;
}

// Sum of a counter's values over the capture.
inline std::int64_t total(const CaptureFiles& c, const std::string& counter) {
    auto it = c.keys.find(counter);
    if (it == c.keys.end()) return -1;
    std::int64_t sum = 0;
    for (const auto& s : all_of<model::CounterSample>(c.events))
        if (s.key == it->second) sum += s.value;
    return sum;
}

// A child running argv with its stdin from a pipe we hold (write a byte to release it).
struct Child {
    pid_t pid = -1;
    int stdin_fd = -1;
};

inline Child spawn(const std::vector<std::string>& args, bool pipe_stdin = false) {
    int p[2] = {-1, -1};
    if (pipe_stdin && ::pipe(p) != 0) return {};
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (pipe_stdin) {
            ::dup2(p[0], 0);
            ::close(p[0]);
            ::close(p[1]);
        }
        std::vector<char*> argv;
        for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));  // NOLINT
        argv.push_back(nullptr);
        ::execvp(argv[0], argv.data());
        ::_exit(127);
    }
    if (pipe_stdin) ::close(p[0]);
    return {pid, pipe_stdin ? p[1] : -1};
}

inline int wait_exit(pid_t pid) {
    int status = 0;
    if (::waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The absolute path of a program in PATH, "" when there is none.
inline std::string which(const std::string& name) {
    const char* path = ::getenv("PATH");
    std::istringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');)
        if (std::string candidate = dir.append("/").append(name);
            ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    return "";
}

}  // namespace apcgate::collectors::perf::testing
