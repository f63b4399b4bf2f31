// The log file, mapped read-only (the project's one file mapping, wire::MappedFile): the reader
// works on one span of the whole file without copying it, and the kernel pages it in as the
// threads' cursors move through it. All the file I/O of reading a log is this.
#pragma once

#include "protocol/wire/mapped_file.hpp"

namespace apcgate::collectors::xray {

using MappedInput = wire::MappedFile;

}  // namespace apcgate::collectors::xray
