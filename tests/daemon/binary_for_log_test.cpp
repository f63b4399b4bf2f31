// Which --binary names an XRay log: the program in the log's name (<base><program>.XXXXXX).
#include "daemon/binary_for_log.hpp"

#include <gtest/gtest.h>

namespace apcgate::daemon {
namespace {

using Paths = std::vector<std::filesystem::path>;

std::string chosen(const std::string& log, const Paths& binaries) {
    const BinaryChoice c = binary_for_log(log, binaries);
    return c.binary ? c.binary->string() : "none: " + c.note;
}

TEST(BinaryForLog, NoneGivenNoneChosenAndOneNamesEveryLog) {
    EXPECT_EQ(chosen("xray-log.srv.aB3dE9", {}), "none: ");
    EXPECT_EQ(chosen("anything.xray", {"/opt/srv"}), "/opt/srv");
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

}  // namespace
}  // namespace apcgate::daemon
