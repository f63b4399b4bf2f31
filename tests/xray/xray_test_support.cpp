#include "xray_test_support.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>

#include "collectors/xray/xray_reader.hpp"
#include "protocol/wire/byte_text.hpp"
#include "tests/support/test_paths.hpp"

namespace apcgate::xray_test {

namespace cx = collectors::xray;

std::filesystem::path testdata(const std::string& name) {
    return std::filesystem::path(apcgate::test_paths::testdata_dir()) / "xray" / name;
}

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(wire::text_of(bytes).data(), static_cast<std::streamsize>(bytes.size()));
}

std::pair<int, std::string> run(const std::string& command) {
    std::string out;
    FILE* p = ::popen(command.c_str(), "r");
    if (p == nullptr) return {-1, {}};
    char buf[65536];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int status = ::pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::string llvm_xray() {
    for (const char* p : {"/usr/bin/llvm-xray-14", "/usr/lib/llvm-14/bin/llvm-xray"})
        if (std::filesystem::exists(p)) return p;
    return {};
}

std::string clangxx() {
    for (const char* p : {"/usr/bin/clang++-14", "/usr/lib/llvm-14/bin/clang++"})
        if (std::filesystem::exists(p)) return p;
    return {};
}

namespace {

const char* kind_name(cx::CallKind k) {
    switch (k) {
        case cx::CallKind::Enter:
            return "function-enter";
        case cx::CallKind::EnterArgs:
            return "function-enter-arg";
        case cx::CallKind::Exit:
            return "function-exit";
        case cx::CallKind::TailExit:
            return "function-tail-exit";
        case cx::CallKind::CustomEvent:
            return "custom-event";
        case cx::CallKind::TypedEvent:
            return "typed-event";
    }
    return "?";
}

}  // namespace

Decoded decode(const std::vector<std::uint8_t>& bytes, const std::string& name) {
    Decoded d;
    d.report = std::make_unique<collectors::ingest::IngestReport>("xray", name);
    auto reader = cx::XrayReader::open(bytes, name, *d.report);
    if (!reader) {
        d.error = reader.error().to_string();
        return d;
    }
    d.opened = true;
    auto& r = **reader;
    d.max_cpu = r.index().max_cpu;
    std::uint32_t thread = 0;
    const cx::CallEvent* e = nullptr;
    for (;;) {
        const auto step = r.next(thread, e);
        if (step == cx::XrayReader::Step::Done) break;
        if (step == cx::XrayReader::Step::ThreadEnd) continue;
        const auto& info = r.thread(thread);
        Rec rec;
        rec.kind = kind_name(e->kind);
        rec.function = e->kind == cx::CallKind::CustomEvent ? 0 : e->function;
        rec.tsc = e->tsc;
        rec.cpu = e->cpu;
        const auto args = r.args(thread, *e);
        rec.args.assign(args.begin(), args.end());
        const auto payload = r.payload(*e);
        rec.data.assign(payload.begin(), payload.end());
        d.threads[{info.pid_known ? info.pid : -1, info.tid}].push_back(std::move(rec));
        ++d.records;
    }
    r.stats().flush(*d.report);
    return d;
}

PerThread by_tid(const PerThread& threads) {
    PerThread out;
    for (const auto& [key, recs] : threads) {
        auto& v = out[{-1, key.second}];
        v.insert(v.end(), recs.begin(), recs.end());
    }
    return out;
}

void expect_same_threads(const PerThread& mine, const PerThread& reference,
                         const std::string& what) {
    for (const auto& [key, ref] : reference) {
        auto it = mine.find(key);
        if (it == mine.end()) {
            ADD_FAILURE() << what << ": thread " << key.second << " (pid " << key.first
                          << ") missing; llvm-xray has " << ref.size() << " records";
            continue;
        }
        const auto& got = it->second;
        const std::size_t n = std::min(got.size(), ref.size());
        std::size_t i = 0;
        while (i < n && got[i] == ref[i]) ++i;
        if (i < n || got.size() != ref.size()) {
            ADD_FAILURE() << what << ": thread " << key.second << " differs at record " << i
                          << " of " << ref.size() << " (mine " << got.size()
                          << ")\n  mine: " << (i < got.size() ? to_string(got[i]) : "<end>")
                          << "\n  llvm: " << (i < ref.size() ? to_string(ref[i]) : "<end>");
        }
    }
    for (const auto& [key, recs] : mine) {
        if (!reference.count(key))
            ADD_FAILURE() << what << ": thread " << key.second << " only in mine (" << recs.size()
                          << " records)";
    }
}

std::optional<LlvmTrace> llvm_decode(const std::filesystem::path& log,
                                     const std::filesystem::path& binary, std::string* error) {
    std::string cmd = llvm_xray() + " convert -output-format=yaml";
    if (!binary.empty()) cmd += " -instr_map=" + binary.string() + " -symbolize";
    cmd += " " + log.string();
    auto [status, out] = run(cmd);
    if (status != 0) {
        if (error) *error = "llvm-xray exit " + std::to_string(status);
        return std::nullopt;
    }
    return parse_llvm_yaml(out, error);
}

}  // namespace apcgate::xray_test
