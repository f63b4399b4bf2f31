#include "collectors/barman/dump_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace apcgate::collectors::barman {

Result<DumpFile> DumpFile::open(const std::filesystem::path& path) {
    wire::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid())
        return Error::at(ErrorKind::Io, std::string("cannot open: ") + std::strerror(errno))
            .in_input(path.string());
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
        return Error::at(ErrorKind::Unsupported, "not a regular file").in_input(path.string());
    return DumpFile(std::move(fd), static_cast<std::uint64_t>(st.st_size), path.string(),
                    wire::identity_of(st));
}

Status DumpFile::read_at(std::uint64_t offset, std::span<std::uint8_t> out) const {
    std::size_t done = 0;
    while (done < out.size()) {
        const ssize_t n = ::pread(fd_.get(), out.data() + done, out.size() - done,
                                  static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            Error e = n == 0 ? Error::at(ErrorKind::Truncated,
                                         "the file ended early (it changed while being read?)")
                             : Error::at(ErrorKind::Io,
                                         std::string("read failed: ") + std::strerror(errno));
            e.input = path_;
            e.offset = offset + done;
            return e;
        }
        done += static_cast<std::size_t>(n);
    }
    return {};
}

Status BlockReader::load(std::uint64_t from, std::uint64_t need) {
    const std::uint64_t end = std::min<std::uint64_t>(geometry_.data_length,
                                                      from + std::max<std::uint64_t>(chunk_, need));
    window_.resize(static_cast<std::size_t>(end - from));
    // The logical range is at most two physical pieces: before and after the wrap point.
    std::uint64_t at = from;
    while (at < end) {
        const std::uint64_t piece_end = at < geometry_.wrap ? std::min(end, geometry_.wrap) : end;
        const auto span = std::span(window_).subspan(static_cast<std::size_t>(at - from),
                                                     static_cast<std::size_t>(piece_end - at));
        if (Status st = file_.read_at(geometry_.file_offset(at), span); !st) return st;
        at = piece_end;
    }
    tokenizer_.set_window(from, window_);
    return {};
}

BlockReader::Step BlockReader::settle(BlockTokenizer::Step step, Block& out) {
    for (;;) {
        switch (step) {
            case BlockTokenizer::Step::Block:
                return Step::Block;
            case BlockTokenizer::Step::End:
                return Step::End;
            case BlockTokenizer::Step::Error:
                error_ = tokenizer_.error();
                return Step::Stopped;
            case BlockTokenizer::Step::NeedMore:
                if (Status st = load(tokenizer_.position(), tokenizer_.needed()); !st) {
                    error_ = std::move(st).take_error();
                    return Step::Stopped;
                }
                break;
        }
        step = tokenizer_.next(out);
    }
}

}  // namespace apcgate::collectors::barman
