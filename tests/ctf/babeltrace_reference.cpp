#include "babeltrace_reference.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace apcgate::ctf_test {

namespace {

std::uint64_t number_after(const std::string& line, const std::string& what) {
    const auto at = line.find(what);
    if (at == std::string::npos) return 0;
    return std::stoull(line.substr(at + what.size()));
}

}  // namespace

bool babeltrace_available() {
    static const bool kAvailable = std::system("babeltrace2 --version > /dev/null 2>&1") == 0;
    return kAvailable;
}

Reference babeltrace_reference(const std::filesystem::path& trace) {
    Reference r;
    const std::string err = (std::filesystem::temp_directory_path() /
                             ("apcgate-ctf-bt2-" + std::to_string(::getpid()) + ".err"))
                                .string();
    const std::string cmd =
        "babeltrace2 -c sink.text.details -p compact=true,with-metadata=false '" + trace.string() +
        "' 2>'" + err + "'";
    std::FILE* p = ::popen(cmd.c_str(), "r");
    if (p == nullptr) return r;
    std::string line;
    std::array<char, 4096> buf{};
    while (std::fgets(buf.data(), buf.size(), p) != nullptr) {
        line += buf.data();
        if (line.empty() || line.back() != '\n') continue;
        if (const auto at = line.find("} Event `"); at != std::string::npos) {
            const auto start = at + 9;
            const auto end = line.rfind("` (");
            if (end != std::string::npos && end >= start) {
                ++r.events[line.substr(start, end - start)];
                r.sequence.push_back(line.substr(start, end - start));
            }
        } else if (line.find("} Discarded events (") != std::string::npos) {
            r.discarded_events += number_after(line, "} Discarded events (");
        } else if (line.find("} Discarded packets (") != std::string::npos) {
            r.discarded_packets += number_after(line, "} Discarded packets (");
        }
        line.clear();
    }
    const int status = ::pclose(p);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(err);
    std::ostringstream s;
    s << in.rdbuf();
    r.stderr_text = s.str();
    std::filesystem::remove(err);
    return r;
}

}  // namespace apcgate::ctf_test
