// The report's text tables: aligned columns, and names too wide for a terminal shortened (the
// machine-readable outputs keep them whole).
#include "daemon/analysis/text_table.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace apcgate::daemon::analysis {
namespace {

std::string printed(const TextTable& t) {
    std::ostringstream out;
    t.print(out, "");
    return out.str();
}

TEST(TextTable, NumbersAlignRightAndTextLeft) {
    TextTable t({"N", "NAME"}, {true, false});
    t.row({"5", "a"});
    t.row({"123", "bcd"});
    EXPECT_EQ(printed(t), "  N  NAME\n  5  a\n123  bcd\n");
}

TEST(TextTable, ATextCellWiderThanATerminalIsShortenedAndANumberNever) {
    const std::string name = "ns::f(std::vector<std::variant<" + std::string(200, 'x') + ">>)";
    const std::string number(90, '9');
    TextTable t({"SAMPLES", "FUNCTION"}, {true, false});
    t.row({number, name});
    const std::string text = printed(t);
    EXPECT_NE(text.find(number), std::string::npos);
    EXPECT_NE(text.find(name.substr(0, TextTable::kWidestText - 3) + "...\n"), std::string::npos)
        << text;
    EXPECT_EQ(text.find(name), std::string::npos);
}

TEST(TextTable, ShorteningNeverCutsAUtf8Character) {
    // "é" is two bytes; placed so that the cut would fall between them.
    const std::string name =
        std::string(TextTable::kWidestText - 4, 'a') + "é" + std::string(20, 'b');
    TextTable t({"NAME"}, {false});
    t.row({name});
    const std::string text = printed(t);
    EXPECT_EQ(text.substr(text.find('\n') + 1),
              std::string(TextTable::kWidestText - 4, 'a') + "...\n");
}

}  // namespace
}  // namespace apcgate::daemon::analysis
