#include "daemon/service/service_config.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <set>

namespace apcgate::daemon {

namespace {

// One `KEY=value` with quotes and escapes resolved: the tokenizer's output.
struct Assignment {
    std::string key;
    std::string value;
    std::size_t offset = 0;  // of the line's first byte
    std::size_t line = 0;    // 1-based
};

Error bad(const std::string& input, std::size_t offset, std::size_t line, std::string field,
          std::string message) {
    Error e = Error::at(ErrorKind::Usage, std::move(message));
    e.input = input;
    e.offset = offset;
    e.record = "line " + std::to_string(line);
    e.field = std::move(field);
    return e;
}

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}
bool is_key_start(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool is_key_char(char c) {
    return is_key_start(c) || (c >= '0' && c <= '9');
}

// Tokenizes one line (without its '\n'); nullopt for blank and comment lines.
Result<std::optional<Assignment>> tokenize_line(std::string_view s, std::size_t offset,
                                                std::size_t line, const std::string& input) {
    std::size_t i = 0;
    auto skip_ws = [&] {
        while (i < s.size() && is_space(s[i])) ++i;
    };
    skip_ws();
    if (i == s.size() || s[i] == '#') return std::optional<Assignment>{};
    if (s.substr(i, 7) == "export " || s.substr(i, 7) == "export\t") {
        i += 7;
        skip_ws();
    }
    Assignment a{{}, {}, offset, line};
    const std::size_t key_start = i;
    if (i < s.size() && is_key_start(s[i]))
        while (i < s.size() && is_key_char(s[i])) ++i;
    a.key = std::string(s.substr(key_start, i - key_start));
    if (a.key.empty() || i == s.size() || s[i] != '=')
        return bad(input, offset + i, line, a.key, "expected KEY=value");
    ++i;
    // Errors point at the character that is wrong: the opening quote, the '$', the backslash.
    auto fail = [&](std::size_t at, const char* what) {
        return bad(input, offset + at, line, a.key, what);
    };
    // As in the shell, '#' starts a comment only at the start of a word.
    const std::size_t value_start = i;
    while (i < s.size() && !is_space(s[i]) && !(s[i] == '#' && i == value_start)) {
        const std::size_t at = i;
        const char c = s[i++];
        if (c == '\'') {
            const std::size_t end = s.find('\'', i);
            if (end == std::string_view::npos) return fail(at, "unterminated single quote");
            a.value += s.substr(i, end - i);
            i = end + 1;
        } else if (c == '"') {
            for (;;) {
                if (i == s.size()) return fail(at, "unterminated double quote");
                const std::size_t d_at = i;
                const char d = s[i++];
                if (d == '"') break;
                if (d == '\\' && i < s.size() &&
                    std::string_view("\"\\$`").find(s[i]) != std::string_view::npos) {
                    a.value += s[i++];
                } else if (d == '$' || d == '`') {
                    return fail(d_at, "variable and command substitution are not supported");
                } else {
                    a.value += d;
                }
            }
        } else if (c == '\\') {
            if (i == s.size()) return fail(at, "backslash at end of line");
            a.value += s[i++];
        } else if (c == '$' || c == '`') {
            return fail(at, "variable and command substitution are not supported");
        } else {
            a.value += c;
        }
    }
    skip_ws();
    if (i < s.size() && s[i] != '#') return fail(i, "unquoted space in value");
    return std::optional<Assignment>{std::move(a)};
}

template <typename T>
std::optional<T> to_number(std::string_view s, T lo, T hi) {
    T v{};
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
    return v;
}

std::optional<bool> to_bool(std::string_view s) {
    if (s == "yes" || s == "true" || s == "1" || s == "on") return true;
    if (s == "no" || s == "false" || s == "0" || s == "off") return false;
    return std::nullopt;
}

std::vector<std::string> split_words(std::string_view s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (is_space(s[i]) || s[i] == '\n')) ++i;
        const std::size_t start = i;
        while (i < s.size() && !is_space(s[i]) && s[i] != '\n') ++i;
        if (i > start) out.emplace_back(s.substr(start, i - start));
    }
    return out;
}

// Applies one assignment: the parser proper, which knows the keys and their value types.
Status apply(ServiceConfig& cfg, const Assignment& a, const std::string& input) {
    auto invalid = [&](const std::string& why) {
        return bad(input, a.offset, a.line, a.key, "invalid value '" + a.value + "': " + why);
    };
    if (a.key == "APCGATE_PORT") {
        cfg.port = to_number<std::uint16_t>(a.value, 0, 65535);
        if (!cfg.port) return invalid("expected a port number 0..65535");
    } else if (a.key == "APCGATE_LISTEN") {
        if (a.value.empty()) return invalid("expected an address");
        cfg.listen = a.value;
    } else if (a.key == "APCGATE_SOURCES") {
        cfg.sources = split_words(a.value);
    } else if (a.key == "APCGATE_BINARY") {
        cfg.binary = a.value;
    } else if (a.key == "APCGATE_DEBUG_DIRS") {
        cfg.debug_dirs = split_words(a.value);
    } else if (a.key == "APCGATE_LOG_LEVEL") {
        static const std::set<std::string> kLevels{"trace", "debug",    "info", "warn",
                                                   "error", "critical", "off"};
        if (kLevels.count(a.value) == 0) return invalid("expected trace..off");
        cfg.log_level = a.value;
    } else if (a.key == "APCGATE_DISCOVERY") {
        cfg.discovery = to_bool(a.value);
        if (!cfg.discovery) return invalid("expected yes or no");
    } else if (a.key == "APCGATE_DISCOVERY_PORT") {
        std::string list = a.value;
        std::replace(list.begin(), list.end(), ',', ' ');
        std::vector<std::uint16_t> ports;
        for (const std::string& word : split_words(list)) {
            const auto port = to_number<std::uint16_t>(word, 1, 65535);
            if (!port) return invalid("expected port numbers 1..65535");
            ports.push_back(*port);
        }
        if (ports.empty() || ports.size() > kMaxDiscoveryPorts)
            return invalid("expected 1 to " + std::to_string(kMaxDiscoveryPorts) + " ports");
        cfg.discovery_ports = std::move(ports);
    } else if (a.key == "APCGATE_FRAMING") {
        if (a.value == "gator") {
            cfg.framing = Framing::Gator;
        } else if (a.value == "perf") {
            cfg.framing = Framing::Perf;
        } else {
            return invalid("expected gator or perf");
        }
    } else if (a.key == "APCGATE_MAX_CONNECTIONS") {
        cfg.max_connections = to_number<std::size_t>(a.value, 1, 4096);
        if (!cfg.max_connections) return invalid("expected 1..4096");
    } else if (a.key == "APCGATE_HANDSHAKE_TIMEOUT") {
        cfg.handshake_timeout_s = to_number<unsigned>(a.value, 0, 3600);
        if (!cfg.handshake_timeout_s) return invalid("expected seconds 0..3600");
    } else if (a.key == "APCGATE_IDLE_TIMEOUT") {
        cfg.idle_timeout_s = to_number<unsigned>(a.value, 0, 86400);
        if (!cfg.idle_timeout_s) return invalid("expected seconds 0..86400");
    } else if (a.key == "APCGATE_MAX_SEND_BACKLOG") {
        cfg.max_send_backlog_mib = to_number<unsigned>(a.value, 1, 4096);
        if (!cfg.max_send_backlog_mib) return invalid("expected MiB 1..4096");
    } else {
        cfg.warnings.push_back(input + ": line " + std::to_string(a.line) + ": unknown key " +
                               a.key + " ignored");
    }
    return {};
}

}  // namespace

Result<ServiceConfig> parse_service_config(std::string_view text, const std::string& input) {
    if (text.size() > kMaxServiceConfigBytes) {
        Error e = bad(input, kMaxServiceConfigBytes, 0, {},
                      "file is larger than " + std::to_string(kMaxServiceConfigBytes) + " bytes");
        e.kind = ErrorKind::Limit;
        return e;
    }
    ServiceConfig cfg;
    std::size_t offset = 0;
    std::size_t line = 1;
    while (offset < text.size()) {
        std::size_t end = text.find('\n', offset);
        if (end == std::string_view::npos) end = text.size();
        auto a = tokenize_line(text.substr(offset, end - offset), offset, line, input);
        if (!a) return std::move(a).take_error();
        if (a->has_value())
            if (Status st = apply(cfg, **a, input); !st) return std::move(st).take_error();
        offset = end + 1;
        ++line;
    }
    return cfg;
}

Result<ServiceConfig> load_service_config(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error::at(ErrorKind::Io, "cannot open configuration file").in_input(path.string());
    std::string text(kMaxServiceConfigBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad())
        return Error::at(ErrorKind::Io, "cannot read configuration file").in_input(path.string());
    text.resize(static_cast<std::size_t>(in.gcount()));
    return parse_service_config(text, path.string());
}

}  // namespace apcgate::daemon
