#include "collectors/ctf/thread_table.hpp"

#include "collectors/ctf/field_text.hpp"

namespace apcgate::collectors::ctf {

namespace {
std::string clean(std::string_view text) {
    std::string out;
    append_utf8(out, text, false, 256);
    return out;
}
}  // namespace

void ThreadTable::learn(model::Nanos ts, std::int32_t core, std::int32_t tid, std::int32_t pid,
                        std::string_view name, std::string_view image,
                        std::vector<model::Event>& out) {
    auto it = threads_.find(tid);
    if (it == threads_.end() && threads_.size() < kMaxThreads)
        it = threads_.emplace(tid, Info{}).first;
    Info scratch;
    Info& info = it != threads_.end() ? it->second : scratch;
    bool changed = false;
    if (pid >= 0 && pid != info.pid) info.pid = pid, changed = true;
    if (!name.empty() && name != info.name) info.name = std::string(name), changed = true;
    if (!image.empty() && image != info.image) info.image = std::string(image), changed = true;
    if (!changed || info.name.empty()) return;
    std::string n = clean(info.name);
    out.push_back(model::ThreadName{ts, core, tid, n});
    if (info.pid >= 0)
        out.push_back(model::ProcComm{ts, core, info.pid, tid, clean(info.image), std::move(n)});
}

std::int32_t ThreadTable::pid_of(std::int32_t tid) const {
    auto it = threads_.find(tid);
    return it == threads_.end() ? -1 : it->second.pid;
}

void ThreadTable::exited(model::Nanos ts, std::int32_t tid, std::vector<model::Event>& out) {
    auto it = threads_.find(tid);
    if (it != threads_.end()) {
        if (it->second.exited) return;
        it->second.exited = true;
    }
    out.push_back(model::TaskExit{ts, tid});
}

void ThreadTable::freed(model::Nanos ts, std::int32_t tid, std::vector<model::Event>& out) {
    auto it = threads_.find(tid);
    const bool reported = it != threads_.end() && it->second.exited;
    if (!reported) out.push_back(model::TaskExit{ts, tid});
    if (it != threads_.end()) threads_.erase(it);
}

}  // namespace apcgate::collectors::ctf
