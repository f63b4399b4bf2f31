#include "llvm_yaml.hpp"

#include <algorithm>
#include <sstream>

namespace apcgate::xray_test {

namespace {

// Reads one flow-mapping value starting at `i`: a [ list ], a quoted scalar or a plain scalar
// ending at ", " or the closing " }".
std::string value_at(const std::string& s, std::size_t& i) {
    std::string v;
    if (s[i] == '[') {
        const auto end = s.find(']', i);
        v = s.substr(i + 1, end - i - 1);
        i = end + 1;
        return v;
    }
    if (s[i] == '\'') {
        for (++i; i < s.size(); ++i) {
            if (s[i] == '\'') {
                if (i + 1 < s.size() && s[i + 1] == '\'') {
                    v += '\'';
                    ++i;
                    continue;
                }
                ++i;
                break;
            }
            v += s[i];
        }
        return v;
    }
    if (s[i] == '"') {
        for (++i; i < s.size() && s[i] != '"'; ++i) {
            if (s[i] != '\\') {
                v += s[i];
                continue;
            }
            const char c = s[++i];
            if (c == 'x') {
                v += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
                i += 2;
            } else if (c == 'u') {
                v += static_cast<char>(std::stoi(s.substr(i + 1, 4), nullptr, 16));
                i += 4;
            } else {
                static const std::string kFrom = "nrt0\\\"/eabvf";
                static const std::string kTo =
                    std::string("\n\r\t") + '\0' + "\\\"/" + "\x1b\a\b\v\f";
                const auto k = kFrom.find(c);
                v += k == std::string::npos ? c : kTo[k];
            }
        }
        ++i;
        return v;
    }
    const auto comma = s.find(", ", i);
    const auto close = s.rfind(" }");
    const auto end = std::min(comma == std::string::npos ? close : comma, close);
    v = s.substr(i, end - i);
    i = end;
    return v;
}

std::vector<std::uint64_t> numbers(const std::string& list) {
    std::vector<std::uint64_t> out;
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto b = item.find_first_not_of(' ');
        if (b != std::string::npos) out.push_back(std::stoull(item.substr(b)));
    }
    return out;
}

}  // namespace

std::optional<LlvmTrace> parse_llvm_yaml(const std::string& text, std::string* error) {
    LlvmTrace t;
    std::stringstream in(text);
    std::string line;
    auto header = [&line](const char* key) -> std::optional<std::uint64_t> {
        const auto at = line.find(key);
        if (at == std::string::npos || line.find("- {") != std::string::npos) return std::nullopt;
        return std::stoull(line.substr(line.find(':', at) + 1));
    };
    while (std::getline(in, line)) {
        if (auto v = header("version:")) t.version = static_cast<std::uint16_t>(*v);
        if (auto v = header("  type:")) t.type = static_cast<std::uint16_t>(*v);
        if (auto v = header("cycle-frequency:")) t.cycle_frequency = *v;
        const auto open = line.find("- { ");
        if (open == std::string::npos) continue;
        Rec r;
        std::int64_t tid = -1;
        std::int64_t pid = -1;
        std::uint32_t record_type = 0;
        std::size_t i = open + 4;
        while (i < line.size() && line.compare(i, 2, " }") != 0) {
            const auto colon = line.find(": ", i);
            if (colon == std::string::npos) {
                if (error) *error = "cannot read: " + line;
                return std::nullopt;
            }
            const std::string key = line.substr(i, colon - i);
            i = colon + 2;
            const std::string v = value_at(line, i);
            if (key == "type") record_type = static_cast<std::uint32_t>(std::stoul(v));
            if (key == "func-id") r.function = static_cast<std::uint32_t>(std::stoul(v));
            if (key == "function") r.name = v;
            if (key == "args") r.args = numbers(v);
            if (key == "cpu") r.cpu = static_cast<std::uint32_t>(std::stoul(v));
            if (key == "thread") tid = std::stoll(v);
            if (key == "process") pid = std::stoll(v);
            if (key == "kind") r.kind = v;
            if (key == "tsc") r.tsc = std::stoull(v);
            if (key == "data") r.data = v;
            if (line.compare(i, 2, ", ") == 0) i += 2;
        }
        // Typed events carry their type in the record type; their func-id is a leftover.
        if (r.kind == "typed-event") r.function = record_type;
        if (r.kind == "custom-event" || r.kind == "typed-event") r.name.clear();
        if (r.kind == "custom-event") r.function = 0;
        t.threads[{pid, tid}].push_back(std::move(r));
        ++t.records;
    }
    return t;
}

void sort_by_tsc(PerThread& threads) {
    for (auto& [key, recs] : threads) {
        std::stable_sort(recs.begin(), recs.end(),
                         [](const Rec& a, const Rec& b) { return a.tsc < b.tsc; });
    }
}

std::string to_string(const Rec& r) {
    std::string s = r.kind + " fn " + std::to_string(r.function) + " tsc " + std::to_string(r.tsc) +
                    " cpu " + std::to_string(r.cpu);
    if (!r.args.empty()) {
        s += " args";
        for (auto a : r.args) s += " " + std::to_string(a);
    }
    if (!r.data.empty()) s += " data '" + r.data + "'";
    return s;
}

}  // namespace apcgate::xray_test
