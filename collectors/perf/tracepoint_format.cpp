#include "collectors/perf/tracepoint_format.hpp"

#include <charconv>

namespace apcgate::collectors::perf {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::optional<std::uint32_t> to_u32(std::string_view s) {
    s = trim(s);
    std::uint32_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

// The value of "key:VALUE;" within a field line, if present.
std::optional<std::string_view> item(std::string_view line, std::string_view key) {
    const std::size_t at = line.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    const std::size_t start = at + key.size();
    const std::size_t end = line.find(';', start);
    if (end == std::string_view::npos) return std::nullopt;
    return line.substr(start, end - start);
}

Error line_error(std::string_view input, std::size_t line_no, std::string message) {
    Error e = Error::at(ErrorKind::Malformed, std::move(message));
    e.input = std::string(input);
    e.record = "field line " + std::to_string(line_no);
    return e;
}

}  // namespace

const TracepointField* TracepointFormat::field(std::string_view wanted) const {
    for (const auto& f : fields)
        if (f.name == wanted) return &f;
    return nullptr;
}

Result<TracepointFormat> parse_tracepoint_format(std::string_view text, std::string_view input) {
    TracepointFormat fmt;
    std::size_t line_no = 0;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        const std::string_view raw = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        ++line_no;
        const std::string_view line = trim(raw);
        if (line.rfind("name:", 0) == 0) {
            fmt.name = std::string(trim(line.substr(5)));
        } else if (line.rfind("ID:", 0) == 0) {
            fmt.id = to_u32(line.substr(3));
            if (!fmt.id) return line_error(input, line_no, "ID is not a number");
        } else if (line.rfind("print fmt:", 0) == 0) {
            fmt.print_fmt = std::string(trim(line.substr(10)));
        } else if (line.rfind("field:", 0) == 0) {
            const auto decl = item(line, "field:");
            const auto offset = item(line, "offset:");
            const auto size = item(line, "size:");
            const auto sign = item(line, "signed:");
            if (!decl || !offset || !size)
                return line_error(input, line_no, "field line lacks field/offset/size");
            TracepointField f;
            const auto off = to_u32(*offset);
            const auto sz = to_u32(*size);
            if (!off || !sz) return line_error(input, line_no, "offset or size is not a number");
            f.offset = *off;
            f.size = *sz;
            f.is_signed = sign && to_u32(*sign).value_or(0) != 0;
            std::string_view d = trim(*decl);
            f.data_loc = d.find("__data_loc") != std::string_view::npos;
            if (const std::size_t br = d.find('[');
                br != std::string_view::npos && d.find(']', br) == d.size() - 1)
                d = trim(d.substr(0, br));  // "char prev_comm[16]" -> "char prev_comm"
            const std::size_t sp = d.find_last_of(" \t*");
            f.name = std::string(sp == std::string_view::npos ? d : d.substr(sp + 1));
            f.type = std::string(sp == std::string_view::npos ? "" : trim(d.substr(0, sp + 1)));
            if (f.name.empty()) return line_error(input, line_no, "field without a name");
            fmt.fields.push_back(std::move(f));
        }
    }
    if (fmt.fields.empty()) {
        Error e = Error::at(ErrorKind::Malformed, "no fields in tracepoint format");
        e.input = std::string(input);
        return e;
    }
    return fmt;
}

}  // namespace apcgate::collectors::perf
