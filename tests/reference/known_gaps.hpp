// The one place the reference comparisons tolerate a loss that is a known defect rather than a
// reason: record kinds a converter may count as skipped today although the capture should show
// them, while the work that removes the loss is under way. Every other skip must have a reason
// in its format's table, and every read count must equal the reference decoder's exactly.
// When a loss is fixed, remove its entries: the comparisons are then exact for that format.
#pragma once

#include <map>
#include <string>

namespace apcgate::reference_test {

// XRay: a call nested deeper than the channels a thread has (128) is read and counted skipped
// (call-deeper-than-limit) with its entry, arguments and exit; llvm-xray shows it. LLVM's
// recursion inputs reach such depths; none in tests/data does today.
inline const std::map<std::string, std::string> kXrayKnownLoss{
    {"call-deeper-than-limit", "calls nested deeper than 128 are not shown yet"},
    {"function-enter", "the entry of a call deeper than 128"},
    {"function-enter-arg", "the entry of a call deeper than 128"},
    {"CallArgument", "an argument of a call deeper than 128"},
    {"function-exit", "the exit of a call deeper than 128"},
    {"function-tail-exit", "the exit of a call deeper than 128"},
};

}  // namespace apcgate::reference_test
