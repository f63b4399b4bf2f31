// The daemon's name for the one read-only file mapping (protocol/wire/mapped_file.hpp).
#pragma once

#include "protocol/wire/mapped_file.hpp"

namespace apcgate::daemon {
using wire::MappedFile;
}  // namespace apcgate::daemon
