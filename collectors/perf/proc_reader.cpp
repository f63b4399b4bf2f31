#include "collectors/perf/proc_reader.hpp"

#include <unistd.h>

#include <charconv>
#include <fstream>
#include <iterator>
#include <sstream>

namespace apcgate::collectors::perf {
namespace {

// Files under /proc report size 0, so read until EOF; capped so a hostile tree cannot balloon.
std::string slurp(const std::filesystem::path& p, std::size_t limit = 16u << 20) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return {};
    std::string s;
    char buf[8192];
    while (in && s.size() < limit) {
        in.read(buf, sizeof buf);
        s.append(buf, static_cast<std::size_t>(in.gcount()));
    }
    return s;
}

std::optional<std::uint64_t> hex(std::string_view s) {
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

std::optional<std::int32_t> number(std::string_view s) {
    std::int32_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty() || v < 0) return std::nullopt;
    return v;
}

// The next space-separated word of `s`, consumed.
std::string_view word(std::string_view& s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    const std::size_t sp = s.find(' ');
    const std::string_view w = s.substr(0, sp);
    s.remove_prefix(sp == std::string_view::npos ? s.size() : sp);
    return w;
}

std::vector<std::int32_t> numeric_entries(const std::filesystem::path& dir) {
    std::vector<std::int32_t> out;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (auto n = number(it->path().filename().string())) out.push_back(*n);
    return out;
}

}  // namespace

std::vector<MapsEntry> parse_maps(std::string_view text, std::size_t* malformed) {
    std::vector<MapsEntry> out;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        if (line.empty()) continue;
        const std::string_view range = word(line);
        const std::string_view perms = word(line);
        const std::string_view offset = word(line);
        word(line);  // dev
        word(line);  // inode
        while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
        const std::size_t dash = range.find('-');
        const auto start = hex(range.substr(0, dash));
        const auto end =
            dash == std::string_view::npos ? std::nullopt : hex(range.substr(dash + 1));
        const auto pgoff = hex(offset);
        if (!start || !end || !pgoff || perms.size() < 4 || *end < *start) {
            if (malformed != nullptr) ++*malformed;
            continue;
        }
        if (perms[2] != 'x' || line.empty()) continue;
        std::string path(line);
        if (constexpr std::string_view kDeleted = " (deleted)";
            path.size() > kDeleted.size() && path.ends_with(kDeleted))
            path.resize(path.size() - kDeleted.size());
        out.push_back(MapsEntry{*start, *end, *pgoff, std::move(path)});
    }
    return out;
}

std::optional<std::int32_t> parse_status_tgid(std::string_view text) {
    const std::size_t at = text.find("\nTgid:");
    if (at == std::string_view::npos) return std::nullopt;
    std::string_view rest = text.substr(at + 6);
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    return number(rest.substr(0, rest.find('\n')));
}

std::vector<std::int32_t> ProcReader::pids() const {
    return numeric_entries(root_);
}

std::vector<std::int32_t> ProcReader::tids(std::int32_t pid) const {
    return numeric_entries(root_ / std::to_string(pid) / "task");
}

std::optional<std::int32_t> ProcReader::tgid(std::int32_t tid) const {
    return parse_status_tgid(slurp(root_ / std::to_string(tid) / "status", 64u << 10));
}

std::string ProcReader::comm(std::int32_t pid, std::int32_t tid) const {
    std::string s = slurp(root_ / std::to_string(pid) / "task" / std::to_string(tid) / "comm", 256);
    while (!s.empty() && (s.back() == '\n' || s.back() == '\0')) s.pop_back();
    return s;
}

std::string ProcReader::image(std::int32_t pid) const {
    std::error_code ec;
    auto exe = std::filesystem::read_symlink(root_ / std::to_string(pid) / "exe", ec).string();
    if (!ec && !exe.empty()) {
        if (constexpr std::string_view kDeleted = " (deleted)"; exe.ends_with(kDeleted))
            exe.resize(exe.size() - kDeleted.size());
        return exe;
    }
    const std::string cmdline = slurp(root_ / std::to_string(pid) / "cmdline", 4096);
    std::string first = cmdline.substr(0, cmdline.find('\0'));
    if (!first.empty()) return first;
    const std::string c = comm(pid, pid);
    return c.empty() ? std::string() : "[" + c + "]";
}

std::vector<MapsEntry> ProcReader::maps(std::int32_t pid) const {
    return parse_maps(slurp(root_ / std::to_string(pid) / "maps"));
}

}  // namespace apcgate::collectors::perf
