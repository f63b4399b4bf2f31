// Instantiates the probes of ctf_test_provider.hpp in the test program.
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "ctf_test_provider.hpp"
