// An aligned text table: a heading row and rows of cells, numbers right-aligned, text left.
#pragma once

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace apcgate::daemon::analysis {

class TextTable {
  public:
    // `numeric[i]`: column i is right-aligned.
    TextTable(std::vector<std::string> heading, std::vector<bool> numeric)
        : heading_(std::move(heading)), numeric_(std::move(numeric)) {}
    void row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
    [[nodiscard]] bool empty() const { return rows_.empty(); }

    void print(std::ostream& out, const std::string& indent = "  ") const {
        std::vector<std::size_t> w(heading_.size(), 0);
        auto widen = [&](const std::vector<std::string>& r) {
            for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], r[i].size());
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
    std::vector<std::string> heading_;
    std::vector<bool> numeric_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace apcgate::daemon::analysis
