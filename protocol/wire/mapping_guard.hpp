// Keeps a file that shrinks while it is mapped from ending the process. Reading a mapped page
// that lies past a file's new end raises SIGBUS, whose default action kills the process: a
// trace rewritten in place (a producer truncating and writing it again, a debugger dumping
// anew) would kill `convert`, or the daemon streaming it with `serve --source`, mid-read.
//
// MappedFile registers each mapping here. The SIGBUS handler, installed once, finds the
// mapping the fault is in, maps zero pages over it from the faulting page to its end (so the
// read that faulted, and every later one, reads zeros) and notes that page's offset; the
// reader's owner asks cut_at() after reading and reports the file as cut there. A fault outside
// every registered mapping goes to the handler that was installed before (by default: the
// process ends by SIGBUS, as without this guard). The technique and its limits: mmap() is not
// on POSIX's list of async-signal-safe functions, but on Linux it is the system call itself.
#pragma once

#include <cstddef>
#include <optional>

namespace apcgate::wire::mapping_guard {

// Guards [base, base + size); returns the guard's slot, or -1 when every slot is taken (the
// mapping is then unguarded, as before this guard existed).
int add(const void* base, std::size_t size);
// Stops guarding (before the mapping is unmapped).
void remove(int slot);
// The offset of the first page found gone in the mapping of `slot`, if any.
std::optional<std::size_t> cut_at(int slot);

}  // namespace apcgate::wire::mapping_guard
