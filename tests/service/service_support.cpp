#include "service_support.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

namespace apcgate::service_test {

namespace fs = std::filesystem;

std::optional<int> number_after(e2e::DaemonProcess& d, const std::string& prefix) {
    if (!d.wait_for_log(prefix)) return std::nullopt;
    const std::string log = d.log();
    const auto at = log.find(prefix) + prefix.size();
    std::size_t end = at;
    while (end < log.size() && std::isdigit(static_cast<unsigned char>(log[end])) != 0) ++end;
    if (end == at) return std::nullopt;
    return std::stoi(log.substr(at, end - at));
}

std::vector<unsigned long> udp_socket_inodes(int pid) {
    std::set<unsigned long> sockets;
    const std::regex socket_link(R"(socket:\[(\d+)\])");
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
        const std::string target = fs::read_symlink(e.path(), ec).string();
        std::smatch m;
        if (std::regex_match(target, m, socket_link)) sockets.insert(std::stoul(m[1]));
    }
    std::vector<unsigned long> out;
    for (const char* table : {"/proc/net/udp", "/proc/net/udp6"}) {
        std::ifstream in(table);
        std::string line;
        std::getline(in, line);  // header
        while (std::getline(in, line)) {
            std::istringstream fields(line);
            std::string f;
            for (int i = 0; i < 9 && fields >> f; ++i) {  // sl .. timeout: inode is 10th
            }
            unsigned long inode = 0;
            if (fields >> inode && sockets.count(inode) != 0) out.push_back(inode);
        }
    }
    return out;
}

void write_file(const fs::path& p, const std::string& text) {
    const fs::path tmp = p.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
    }
    fs::rename(tmp, p);  // the daemon never reads half a file
}

int run_shell(const std::string& command) {
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool next_frame(e2e::HostClient& c) {
    auto r = c.read(std::chrono::seconds(10));
    return r && r->code == e2e::kApcData && !r->body.empty();
}

std::vector<std::string> serve_args(const fs::path& state, std::vector<std::string> extra) {
    std::vector<std::string> args{"serve",  "--listen",    "127.0.0.1",
                                  "--port", "0",           "--discovery-port",
                                  "0",      "--state-dir", state.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

}  // namespace apcgate::service_test
