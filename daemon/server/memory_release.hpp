// Hands memory the daemon no longer uses back to the system. glibc keeps freed heap memory for
// reuse, and a capture's queued frames are many separate blocks, so after a capture (or a client
// dropped with a full send queue) tens of MB would otherwise stay resident until the next one.
#pragma once

namespace apcgate::daemon {

void release_free_memory();

}  // namespace apcgate::daemon
