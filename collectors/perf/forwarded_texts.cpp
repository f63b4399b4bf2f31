#include "collectors/perf/forwarded_texts.hpp"

#include <fstream>
#include <sstream>

namespace apcgate::collectors::perf {

namespace {

// tracefs writes arrays as "type name[N]"; the parser kept the element type and the byte size.
std::string declaration(const TracepointField& f) {
    if (f.data_loc) return "__data_loc " + f.type + " " + f.name;
    if ((f.type == "char" || f.type == "u8" || f.type == "unsigned char") && f.size > 1)
        return f.type + " " + f.name + "[" + std::to_string(f.size) + "]";
    return f.type + " " + f.name;
}

}  // namespace

std::string tracepoint_format_text(const TracepointFormat& format) {
    std::string out = "name: " + format.name + "\n";
    if (format.id) out += "ID: " + std::to_string(*format.id) + "\n";
    out += "format:\n";
    for (const TracepointField& f : format.fields) {
        out += "\tfield:" + declaration(f) + ";\toffset:" + std::to_string(f.offset) +
               ";\tsize:" + std::to_string(f.size) + ";\tsigned:" + (f.is_signed ? "1" : "0") +
               ";\n";
    }
    out += "\nprint fmt: " + format.print_fmt + "\n";
    return out;
}

std::string read_proc_text(const std::filesystem::path& proc_root, std::string_view relative) {
    std::ifstream in(proc_root / relative, std::ios::binary);
    if (!in) return {};
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace apcgate::collectors::perf
