#include "collectors/perf/forwarded_texts.hpp"

#include <fstream>
#include <sstream>

namespace apcgate::collectors::perf {

std::string read_proc_text(const std::filesystem::path& proc_root, std::string_view relative) {
    std::ifstream in(proc_root / relative, std::ios::binary);
    if (!in) return {};
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace apcgate::collectors::perf
