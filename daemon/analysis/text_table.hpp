// An aligned text table: a heading row and rows of cells, numbers right-aligned, text left. A
// text cell wider than kWidestText is shortened to its head and "...": one C++ signature must not
// push the table past any terminal (--json and --csv carry names whole).
#pragma once

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace apcgate::daemon::analysis {

class TextTable {
  public:
    static constexpr std::size_t kWidestText = 72;

    // `numeric[i]`: column i is right-aligned.
    TextTable(std::vector<std::string> heading, std::vector<bool> numeric)
        : heading_(std::move(heading)), numeric_(std::move(numeric)) {}
    void row(std::vector<std::string> cells) {
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const bool text = i >= numeric_.size() || !numeric_[i];
            if (text && cells[i].size() > kWidestText) cells[i] = shortened(cells[i]);
        }
        rows_.push_back(std::move(cells));
    }
    [[nodiscard]] bool empty() const { return rows_.empty(); }

    void print(std::ostream& out, const std::string& indent = "  ") const {
        std::vector<std::size_t> w(heading_.size(), 0);
        auto widen = [&](const std::vector<std::string>& r) {
            for (std::size_t i = 0; i < r.size() && i < w.size(); ++i)
                w[i] = std::max(w[i], r[i].size());
        };
        widen(heading_);
        for (const auto& r : rows_) widen(r);
        auto line = [&](const std::vector<std::string>& r) {
            std::string s = indent;
            for (std::size_t i = 0; i < w.size(); ++i) {
                const std::string cell = i < r.size() ? r[i] : std::string();
                const std::string pad(w[i] - cell.size(), ' ');
                const bool last = i + 1 == w.size();
                if (i < numeric_.size() && numeric_[i]) {
                    s += pad + cell;
                } else {
                    s += cell + (last ? "" : pad);
                }
                if (!last) s += "  ";
            }
            while (!s.empty() && s.back() == ' ') s.pop_back();
            out << s << "\n";
        };
        line(heading_);
        for (const auto& r : rows_) line(r);
    }

  private:
    static std::string shortened(const std::string& cell) {
        std::size_t keep = kWidestText - 3;
        // Never cut a UTF-8 sequence: back up to the start of the character at the cut.
        while (keep > 0 && (static_cast<unsigned char>(cell[keep]) & 0xC0) == 0x80) --keep;
        return cell.substr(0, keep) + "...";
    }

    std::vector<std::string> heading_;
    std::vector<bool> numeric_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace apcgate::daemon::analysis
