#include "collectors/perf/tracefs.hpp"

#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace apcgate::collectors::perf {
namespace {

std::optional<std::string> read_small(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return std::nullopt;
    std::string s(64u << 10, '\0');
    in.read(s.data(), static_cast<std::streamsize>(s.size()));
    s.resize(static_cast<std::size_t>(in.gcount()));
    return s;
}

void read_from(const std::filesystem::path& root, const std::vector<std::string>& wanted,
               TracefsProbe& out) {
    for (const std::string& name : wanted) {
        const auto dir = root / "events" / name;
        const auto id_text = read_small(dir / "id");
        const auto format_text = read_small(dir / "format");
        if (!id_text || !format_text) {
            out.problems.push_back("tracepoint " + name + " does not exist in this kernel (" +
                                   dir.string() + ")");
            continue;
        }
        auto fmt = parse_tracepoint_format(*format_text, (dir / "format").string());
        std::uint32_t id = 0;
        const std::string_view t = *id_text;
        auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), id);
        if (!fmt || ec != std::errc() || p == t.data()) {
            out.problems.push_back("tracepoint " + name + ": unreadable description" +
                                   (fmt ? std::string() : ": " + fmt.error().to_string()));
            continue;
        }
        out.found[name] = TracepointInfo{id, std::move(fmt).value(), *format_text};
    }
}

}  // namespace

std::string tracefs_in_mounts(std::string_view mounts) {
    std::istringstream in{std::string(mounts)};
    std::string dev, dir, type;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream l(line);
        if (l >> dev >> dir >> type && type == "tracefs") return dir;
    }
    return {};
}

TracefsProbe read_tracepoints(const std::vector<std::string>& wanted,
                              const std::filesystem::path& root,
                              const std::filesystem::path& proc_root) {
    TracefsProbe out;
    if (!root.empty()) {
        out.where = root.string();
        read_from(root, wanted, out);
        return out;
    }
    const std::string mounted =
        tracefs_in_mounts(read_small(proc_root / "self/mounts").value_or(""));
    if (!mounted.empty()) {
        out.where = mounted;
        read_from(mounted, wanted, out);
        return out;
    }
    // Not mounted: mount it privately, read, and leave no trace.
    std::string dir = (std::filesystem::temp_directory_path() / "apcgate-tracefs.XXXXXX").string();
    if (::mkdtemp(dir.data()) == nullptr) {
        out.where =
            std::string("no tracefs (cannot make a mount point: ") + std::strerror(errno) + ")";
        out.problems.push_back(out.where);
        return out;
    }
    if (::mount("nodev", dir.c_str(), "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) {
        out.where = std::string("no tracefs (not mounted, and mounting it failed: ") +
                    std::strerror(errno) + ")";
        out.problems.push_back(out.where);
        ::rmdir(dir.c_str());
        return out;
    }
    out.where = "tracefs mounted temporarily on " + dir + " (now unmounted)";
    read_from(dir, wanted, out);
    ::umount2(dir.c_str(), MNT_DETACH);
    ::rmdir(dir.c_str());
    return out;
}

}  // namespace apcgate::collectors::perf
