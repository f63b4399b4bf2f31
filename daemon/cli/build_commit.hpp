#pragma once
// The commit this binary was built from (cmake/BuildCommit.cmake writes the definition at build
// time): a short hash, "-dirty" when the checkout had uncommitted changes, or "unknown".
namespace apcgate {
const char* build_commit();
}  // namespace apcgate
