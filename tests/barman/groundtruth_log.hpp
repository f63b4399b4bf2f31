// Reads a shared buffer's .groundtruth.txt: every agent API call that wrote the buffer, one per
// line ("TS core=C task=T op args"), into the records the agent stored for them.
#pragma once

#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace apcgate::barman_test {

struct LogRecord {
    enum class Kind { Sample, Custom, Switch, Annotation, Halt } kind = Kind::Sample;
    std::uint64_t ts = 0;
    std::uint32_t core = 0, task = 0;
    std::optional<std::uint64_t> pc;   // Sample
    std::vector<std::uint64_t> reads;  // Sample: read_counter N -> V, N = 0, 1, ...
    std::string counter;               // Custom: "queue.depth", "temp.celsius"
    std::uint64_t value = 0;           // Custom
    int reason = 0;                    // Switch
    int annotation = 0;                // 0 string, 1 marker, 2 channel name, 3 group name
    std::uint32_t channel = 0, group = 0, color = 0;
    std::string text;
    bool entered = false;  // Halt
};

struct GroundTruth {
    std::vector<LogRecord> records;  // in call order (= store order)
    std::vector<std::pair<std::uint32_t, std::string>> added_tasks;  // add_task_record (header)
    std::size_t lines = 0;
};

inline std::string quoted_text(const std::string& line) {
    const auto a = line.find('\''), b = line.rfind('\'');
    return a == std::string::npos || b <= a ? std::string() : line.substr(a + 1, b - a - 1);
}

inline std::uint64_t number_after(const std::string& line, const std::string& key) {
    const auto at = line.find(key);
    if (at == std::string::npos) return 0;
    return std::stoull(line.substr(at + key.size()), nullptr, 0);
}

inline GroundTruth read_groundtruth(const std::string& path) {
    GroundTruth g;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        ++g.lines;
        std::istringstream s(line);
        std::string ts, core, task, op;
        s >> ts >> core >> task >> op;
        LogRecord r;
        r.ts = std::stoull(ts);
        r.core = static_cast<std::uint32_t>(number_after(core, "core="));
        r.task = static_cast<std::uint32_t>(number_after(task, "task="));
        const std::string rest = line.substr(line.find(op) + op.size());
        if (op == "read_counter") {
            // "read_counter N -> V" belongs to the sample just before it.
            g.records.back().reads.push_back(number_after(rest, "-> "));
            continue;
        }
        if (op == "add_task_record") {
            g.added_tasks.emplace_back(static_cast<std::uint32_t>(std::stoul(rest)),
                                       quoted_text(line));
            continue;
        }
        if (op == "sample_with_pc" || op == "sample") {
            r.kind = LogRecord::Kind::Sample;
            if (op == "sample_with_pc") r.pc = number_after(rest, "pc=");
        } else if (op == "cc") {
            r.kind = LogRecord::Kind::Custom;
            std::istringstream cs(rest);
            cs >> r.counter;
            r.counter = r.counter.substr(0, r.counter.find('['));
            r.value = number_after(rest, "= ");
        } else if (op == "task_switch") {
            r.kind = LogRecord::Kind::Switch;
            r.reason = static_cast<int>(number_after(rest, "reason="));
        } else if (op == "before_idle" || op == "after_idle") {
            r.kind = LogRecord::Kind::Halt;
            r.entered = op == "before_idle";
        } else if (op.rfind("annotate_", 0) == 0) {
            r.kind = LogRecord::Kind::Annotation;
            r.text = quoted_text(line);
            r.color = static_cast<std::uint32_t>(number_after(rest, "color="));
            if (op == "annotate_channel") {
                r.annotation = 0;
                r.channel = static_cast<std::uint32_t>(std::stoul(rest));
            } else if (op == "annotate_marker") {
                r.annotation = 1;
            } else if (op == "annotate_name_channel") {
                r.annotation = 2;
                r.channel = static_cast<std::uint32_t>(std::stoul(rest));
                r.group = static_cast<std::uint32_t>(number_after(rest, "group="));
            } else if (op == "annotate_name_group") {
                r.annotation = 3;
                r.group = static_cast<std::uint32_t>(std::stoul(rest));
            } else {
                throw std::runtime_error("unknown annotation call: " + line);
            }
        } else {
            throw std::runtime_error("unknown call in ground truth: " + line);
        }
        g.records.push_back(std::move(r));
    }
    return g;
}

}  // namespace apcgate::barman_test
