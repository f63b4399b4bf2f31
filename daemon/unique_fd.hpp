// The daemon's name for the one RAII fd type (protocol/wire/unique_fd.hpp).
#pragma once

#include "protocol/wire/unique_fd.hpp"

namespace apcgate::daemon {
using wire::UniqueFd;
}  // namespace apcgate::daemon
