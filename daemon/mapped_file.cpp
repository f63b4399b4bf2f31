#include "daemon/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "daemon/unique_fd.hpp"

namespace apcgate::daemon {

Result<MappedFile> MappedFile::open(const std::filesystem::path& path) {
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) return Error::at(std::string("cannot open: ") + std::strerror(errno)).in_input(path.string());
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0)
        return Error::at(std::string("cannot stat: ") + std::strerror(errno)).in_input(path.string());
    if (!S_ISREG(st.st_mode)) return Error::at("not a regular file").in_input(path.string());
    const auto size = static_cast<std::size_t>(st.st_size);
    if (size == 0) return MappedFile(nullptr, 0);
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (p == MAP_FAILED)
        return Error::at(std::string("cannot map: ") + std::strerror(errno)).in_input(path.string());
    ::madvise(p, size, MADV_SEQUENTIAL);
    return MappedFile(static_cast<const std::uint8_t*>(p), size);
}

MappedFile::MappedFile(MappedFile&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
    if (this != &o) {
        this->~MappedFile();
        data_ = std::exchange(o.data_, nullptr);
        size_ = std::exchange(o.size_, 0);
    }
    return *this;
}

MappedFile::~MappedFile() {
    if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);  // NOLINT
}

}  // namespace apcgate::daemon
