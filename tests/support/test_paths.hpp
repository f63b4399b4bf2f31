// Where the tests find the checkout, the build and the programs they run.
//
// The paths are compiled into one small file (test_paths.cpp) and nowhere else: a test file that
// held them as macros would differ in every checkout, so every fresh clone (CI's) would compile
// it anew instead of taking it from ccache.
#pragma once

namespace apcgate::test_paths {

// tests/data: real producers' files, with their README.
const char* testdata_dir();
// The checkout's root.
const char* source_dir();
// The apcgate binary under test.
const char* apcgate_binary();
// The build's man pages (build/man) and systemd unit (build/systemd/apcgate.service).
const char* man_dir();
const char* unit_file();
// tests/perf's workload program (perf_workload).
const char* perf_workload();
// tests/ctf's LTTng-UST tracepoint provider program; empty when the build has none.
const char* ctf_ust_app();

}  // namespace apcgate::test_paths
