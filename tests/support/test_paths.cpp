#include "tests/support/test_paths.hpp"

// The definitions come from tests/CMakeLists.txt and from the folders whose programs and files
// they name; a build without those folders' suites (benchmarks alone) leaves theirs empty.
#ifndef APCGATE_MAN_DIR
#define APCGATE_MAN_DIR ""
#endif
#ifndef APCGATE_UNIT_FILE
#define APCGATE_UNIT_FILE ""
#endif
#ifndef PERF_WORKLOAD
#define PERF_WORKLOAD ""
#endif
#ifndef CTF_UST_APP
#define CTF_UST_APP ""
#endif

namespace apcgate::test_paths {

const char* testdata_dir() {
    return APCGATE_TESTDATA_DIR;
}
const char* source_dir() {
    return APCGATE_SOURCE_DIR;
}
const char* apcgate_binary() {
    return APCGATE_BINARY;
}
const char* man_dir() {
    return APCGATE_MAN_DIR;
}
const char* unit_file() {
    return APCGATE_UNIT_FILE;
}
const char* perf_workload() {
    return PERF_WORKLOAD;
}
const char* ctf_ust_app() {
    return CTF_UST_APP;
}

}  // namespace apcgate::test_paths
