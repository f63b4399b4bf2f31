#include "collectors/ctf/scratch_dir.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>

namespace apcgate::collectors::ctf {

namespace fs = std::filesystem;

Result<ScratchDir> ScratchDir::make(const fs::path& parent, std::string_view prefix) {
    std::string name = (parent / (std::string(prefix) + "-XXXXXX")).string();
    if (::mkdtemp(name.data()) == nullptr)
        return Error::at(ErrorKind::Io,
                         std::string("cannot make a temporary directory: ") + std::strerror(errno))
            .in_input(parent.string());
    return ScratchDir(fs::path(name));
}

fs::path ScratchDir::default_parent() {
    const std::string key(kScratchEnv);
    const char* dir = std::getenv(key.c_str());
    if (dir != nullptr && *dir != '\0') return dir;
    std::error_code ec;
    fs::path tmp = fs::temp_directory_path(ec);
    return ec ? fs::path("/tmp") : tmp;
}

ScratchDir& ScratchDir::operator=(ScratchDir&& other) noexcept {
    if (this != &other) {
        remove();
        path_ = std::move(other.path_);
        other.path_.clear();
    }
    return *this;
}

void ScratchDir::remove() {
    if (path_.empty()) return;
    std::error_code ec;
    fs::remove_all(path_, ec);
    path_.clear();
}

}  // namespace apcgate::collectors::ctf
