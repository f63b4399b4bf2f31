// Which --binary names an XRay log: the program in the log's name (<base><program>.XXXXXX), and
// the XRay options the shared command-line options give a log.
#include "collectors/xray/binary_for_log.hpp"

#include <gtest/gtest.h>

#include "collectors/xray/xray_ingest.hpp"

namespace apcgate::collectors::xray {
namespace {

using Paths = std::vector<std::filesystem::path>;

std::string chosen(const std::string& log, const Paths& binaries) {
    const BinaryChoice c = binary_for_log(log, binaries);
    return c.binary ? c.binary->string() : "none: " + c.note;
}

TEST(BinaryForLog, OneNamesEveryLog) {
    EXPECT_EQ(chosen("anything.xray", {"/opt/srv"}), "/opt/srv");
    EXPECT_EQ(chosen("xray-log.worker.aB3dE9", {"/opt/srv"}), "/opt/srv");
}

// Without --binary the calls are fn#ID: the note says so and which binary would name them (the
// program, when the log has the runtime's default base; else how the runtime names logs).
TEST(BinaryForLog, NoneGivenSaysHowToNameTheCalls) {
    EXPECT_EQ(chosen("/tmp/xray-log.srv.aB3dE9", {}),
              "none: no --binary: calls are named fn#ID (a log holds function ids only); "
              "--binary PATH/srv, the executable that wrote it, names them");
    const std::string other = chosen("/tmp/run1-srv.aB3dE9", {});
    EXPECT_NE(other.find("calls are named fn#ID"), std::string::npos) << other;
    EXPECT_NE(other.find("<base><program>.XXXXXX; this one's is run1-srv)"), std::string::npos)
        << other;
}

TEST(BinaryForLog, TheProgramInTheLogsNameChoosesWhateverTheBase) {
    const Paths bins{"/opt/bin/srv", "/opt/bin/worker", "/opt/bin/my-srv"};
    EXPECT_EQ(chosen("/tmp/xray-log.srv.aB3dE9", bins), "/opt/bin/srv");
    EXPECT_EQ(chosen("/tmp/xray-log.worker.Zz09yX", bins), "/opt/bin/worker");
    EXPECT_EQ(chosen("/tmp/xray-log.my-srv.000000", bins), "/opt/bin/my-srv");  // the longest
    EXPECT_EQ(chosen("/var/log/run1-worker.qwerty", bins), "/opt/bin/worker");
    EXPECT_EQ(chosen("worker.abcdef", bins), "/opt/bin/worker");
    EXPECT_EQ(chosen("srv", bins), "/opt/bin/srv");  // a name without the random part
}

TEST(BinaryForLog, ANameThatIsAnotherProgramsChoosesNoneAndSaysWhy) {
    const Paths bins{"/opt/bin/srv", "/opt/bin/worker"};
    const std::string c = chosen("/tmp/xray-log.mysrv.aB3dE9", bins);  // "mysrv" is not "srv"
    EXPECT_EQ(c.rfind("none: no --binary is the program this log's name gives (xray-log.mysrv;", 0),
              0U)
        << c;
    EXPECT_NE(c.find("given: srv, worker"), std::string::npos) << c;
}

// The registry hands every format the same options; the XRay ingester makes its own of them:
// the log's binary with the note of how it was chosen, and the debug directories.
TEST(XrayOptionsFromShared, TheLogsBinaryAndDebugDirs) {
    ingest::IngestOptions shared;
    shared.input = "/tmp/xray-log.worker.Zz09yX";
    shared.binaries = {"/opt/bin/srv", "/opt/bin/worker"};
    shared.debug_dirs = {"/dbg", "/more dbg"};
    const XrayOptions named = xray_options(shared);
    EXPECT_EQ(named.input, shared.input);
    EXPECT_EQ(named.binary, "/opt/bin/worker");
    EXPECT_EQ(named.debug_dirs, shared.debug_dirs);
    EXPECT_TRUE(named.notes.empty());
    EXPECT_FALSE(named.decoding_thread);

    shared.binaries = {};
    const XrayOptions unnamed = xray_options(shared);
    EXPECT_TRUE(unnamed.binary.empty());
    ASSERT_EQ(unnamed.notes.size(), 1U);
    EXPECT_EQ(unnamed.notes[0],
              "no --binary: calls are named fn#ID (a log holds function ids "
              "only); --binary PATH/worker, the executable that wrote it, names "
              "them");
}

}  // namespace
}  // namespace apcgate::collectors::xray
