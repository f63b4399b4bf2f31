#include "daemon/analysis/stack_profile.hpp"

#include <algorithm>

namespace apcgate::daemon::analysis {

std::uint32_t StackProfile::function_of(const model::StackFrame& f) {
    const auto key = std::make_pair(f.cookie, f.offset);
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    ResolvedFrame r = symbols_.resolve(f.cookie, f.offset);
    const std::uint32_t name = names_.id(r.name);
    const std::uint64_t nk = (std::uint64_t{name} << 32) | r.image;
    std::uint32_t fid = 0;
    if (auto it = by_name_image_.find(nk); it != by_name_image_.end()) {
        fid = it->second;
    } else {
        fid = static_cast<std::uint32_t>(functions_.size());
        functions_.push_back({name, r.image, 0, 0});
        by_name_image_.emplace(nk, fid);
    }
    if (cache_.size() < kMaxAddresses) cache_.emplace(key, fid);
    return fid;
}

void StackProfile::sample(const model::Backtrace& b) {
    if (only_pid_ && b.pid != *only_pid_) return;
    if (b.frames.empty()) return;
    scratch_.clear();
    for (auto it = b.frames.rbegin(); it != b.frames.rend(); ++it)
        scratch_.push_back(function_of(*it));  // outermost first
    ++functions_[scratch_.back()].self;
    seen_.assign(scratch_.begin(), scratch_.end());
    std::sort(seen_.begin(), seen_.end());
    seen_.erase(std::unique(seen_.begin(), seen_.end()), seen_.end());
    for (const std::uint32_t f : seen_) ++functions_[f].total;
    if (auto it = stacks_.find(scratch_); it != stacks_.end()) {
        ++it->second;
    } else if (stacks_.size() < kMaxStacks) {
        stacks_.emplace(scratch_, 1);
    } else {
        ++stacks_folded_;
    }
}

void StackProfile::fill(Report& r) const {
    const auto& images = symbols_.images();
    for (const auto& f : functions_) {
        r.functions.push_back({names_.name(f.name), images[f.image].path, f.self, f.total});
    }
    std::sort(r.functions.begin(), r.functions.end(),
              [](const FunctionRow& a, const FunctionRow& b) {
                  if (a.self_samples != b.self_samples) return a.self_samples > b.self_samples;
                  if (a.total_samples != b.total_samples) return a.total_samples > b.total_samples;
                  return a.name != b.name ? a.name < b.name : a.image < b.image;
              });
    for (const auto& [stack, n] : stacks_) {
        std::string folded;
        for (const std::uint32_t f : stack) {
            if (!folded.empty()) folded += ';';
            // Folded-stack readers split on ';' and on the last space: keep both out of names.
            for (const char c : names_.name(functions_[f].name)) folded += c == ';' ? ':' : c;
        }
        r.stacks.push_back({std::move(folded), n});
    }
    if (stacks_folded_ > 0) r.stacks.push_back({"(other stacks)", stacks_folded_});
    std::sort(r.stacks.begin(), r.stacks.end(), [](const StackRow& a, const StackRow& b) {
        return a.samples != b.samples ? a.samples > b.samples : a.folded < b.folded;
    });
    r.losses.add(AnalysisStat::FunctionsFolded, names_.overflowed(),
                 "past " + std::to_string(kMaxFunctions) + " distinct functions");
    r.losses.add(AnalysisStat::StacksFolded, stacks_folded_,
                 "past " + std::to_string(kMaxStacks) + " distinct stacks");
}

}  // namespace apcgate::daemon::analysis
