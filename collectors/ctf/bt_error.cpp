#include "collectors/ctf/bt_error.hpp"

#include <babeltrace2/babeltrace.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "collectors/ctf/bt_ref.hpp"

namespace apcgate::collectors::ctf {

namespace {

constexpr std::size_t kMaxCauses = 4;        // the deepest ones say what is wrong
constexpr std::size_t kMaxCauseChars = 300;  // causes end in long lists of object addresses
constexpr std::size_t kMaxCapture = 1 << 20;

// Drops the "xxx-addr=0x55d0c2a0, " object addresses babeltrace adds to its messages: they
// mean nothing to the user and differ between runs.
std::string without_addresses(std::string_view text) {
    std::string out;
    while (!text.empty()) {
        const auto at = text.find("-addr=0x");
        if (at == std::string_view::npos) break;
        auto start = text.find_last_of(" ,:", at);
        start = start == std::string_view::npos ? 0 : start + 1;
        auto end = text.find(',', at);
        end = end == std::string_view::npos ? text.size() : end + 1;
        if (end < text.size() && text[end] == ' ') ++end;
        out.append(text.substr(0, start));
        text.remove_prefix(end);
    }
    out.append(text);
    while (!out.empty() && (out.back() == ' ' || out.back() == ',' || out.back() == ':'))
        out.pop_back();
    return out;
}

std::string shortened(std::string_view raw) {
    std::string text = without_addresses(raw);
    if (text.size() <= kMaxCauseChars) return text;
    return text.substr(0, kMaxCauseChars) + "...";
}

// The data stream file a message iterator cause names: source.ctf.fs names its output ports
// "TRACE-UUID | STREAM-CLASS-ID | FILE".
std::string stream_file(const bt_error_cause* cause) {
    if (bt_error_cause_get_actor_type(cause) != BT_ERROR_CAUSE_ACTOR_TYPE_MESSAGE_ITERATOR)
        return {};
    const char* port = bt_error_cause_message_iterator_actor_get_component_output_port_name(cause);
    if (port == nullptr) return {};
    const std::string_view name = port;
    const auto bar = name.rfind(" | ");
    return bar == std::string_view::npos ? std::string() : std::string(name.substr(bar + 3));
}

std::string without_escapes(std::string_view line) {
    std::string out;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b') {  // a terminal colour sequence: ESC [ ... letter
            while (i < line.size() && !((line[i] >= 'a' && line[i] <= 'z') ||
                                        (line[i] >= 'A' && line[i] <= 'Z' && line[i] != '[')))
                ++i;
            continue;
        }
        out += line[i];
    }
    return out;
}

// Splits off the first whitespace-separated word of `s`.
std::string_view next_word(std::string_view& s) {
    const auto start = s.find_first_not_of(' ');
    if (start == std::string_view::npos) {
        s = {};
        return {};
    }
    s.remove_prefix(start);
    const auto end = s.find(' ');
    std::string_view word = s.substr(0, end);
    s = end == std::string_view::npos ? std::string_view{} : s.substr(end);
    return word;
}

}  // namespace

Error take_bt_error(ErrorKind kind, std::string_view what) {
    ErrorRef error(bt_current_thread_take_error());
    std::string message(what);
    if (!error) return Error::at(kind, message);
    const std::uint64_t n = bt_error_get_cause_count(error.get());
    std::string causes;
    std::string file;
    for (std::uint64_t i = 0; i < n && file.empty(); ++i)
        file = stream_file(bt_error_borrow_cause_by_index(error.get(), i));
    std::size_t kept = 0;
    for (std::uint64_t i = 0; i < n && kept < kMaxCauses; ++i) {
        const bt_error_cause* cause = bt_error_borrow_cause_by_index(error.get(), i);
        const char* text = bt_error_cause_get_message(cause);
        if (text == nullptr || *text == '\0') continue;
        // The library's own causes only say that a component's method failed: the plugin's
        // causes (deeper in the chain) say why.
        const char* module = bt_error_cause_get_module_name(cause);
        if (module != nullptr && std::string_view(module) == "libbabeltrace2" && kept > 0) continue;
        if (!causes.empty()) causes += "; ";
        causes += shortened(text);
        ++kept;
    }
    if (!causes.empty()) message += ": libbabeltrace2 said: " + causes;
    Error e = Error::at(kind, std::move(message));
    e.input = std::move(file);
    return e;
}

std::vector<std::string> bt_log_errors(std::string_view log, std::size_t limit) {
    std::vector<std::string> out;
    while (!log.empty() && out.size() < limit) {
        const auto eol = log.find('\n');
        const std::string clean = without_escapes(log.substr(0, eol));
        log = eol == std::string_view::npos ? std::string_view{} : log.substr(eol + 1);
        // "MM-DD HH:MM:SS.mmm PID TID LEVEL TAG func@file:line [component] message"
        std::string_view rest = clean;
        std::string_view words[7];
        for (auto& w : words) w = next_word(rest);
        if (words[4] != "E" && words[4] != "F") continue;
        if (words[6].find('@') == std::string_view::npos) continue;
        const auto start = rest.find_first_not_of(' ');
        if (start == std::string_view::npos) continue;
        rest.remove_prefix(start);
        if (!rest.empty() && rest.front() == '[') {
            const auto close = rest.find("] ");
            if (close != std::string_view::npos) rest.remove_prefix(close + 2);
        }
        out.push_back(shortened(rest));
    }
    return out;
}

StderrCapture::StderrCapture() {
    std::fflush(stderr);
    char name[] = "/tmp/apcgate-ctf-log-XXXXXX";
    file_ = ::mkstemp(name);
    if (file_ < 0) return;
    ::unlink(name);
    saved_ = ::dup(2);
    if (saved_ < 0 || ::dup2(file_, 2) < 0) {
        if (saved_ >= 0) ::close(saved_);
        saved_ = -1;
    }
}

StderrCapture::~StderrCapture() {
    std::fflush(stderr);
    if (saved_ >= 0) {
        ::dup2(saved_, 2);
        ::close(saved_);
        // Lines another part of the program wrote meanwhile are not ours to swallow.
        const std::string all = text();
        std::string_view rest = all;
        while (!rest.empty()) {
            const auto eol = rest.find('\n');
            const std::string_view line =
                rest.substr(0, eol == std::string_view::npos ? rest.size() : eol + 1);
            rest.remove_prefix(line.size());
            if (bt_log_errors(line, 1).empty() && line.find(" PLUGIN/") == std::string_view::npos &&
                line.find(" LIB/") == std::string_view::npos)
                (void)!::write(2, line.data(), line.size());
        }
    }
    if (file_ >= 0) ::close(file_);
}

std::string StderrCapture::text() const {
    std::string out;
    if (file_ < 0) return out;
    char buf[4096];
    off_t at = 0;
    while (out.size() < kMaxCapture) {
        const ssize_t n = ::pread(file_, buf, sizeof buf, at);
        if (n <= 0) break;
        out.append(buf, static_cast<std::size_t>(n));
        at += n;
    }
    return out;
}

}  // namespace apcgate::collectors::ctf
