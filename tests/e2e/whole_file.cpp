#include "whole_file.hpp"

#include <fstream>
#include <sstream>

namespace apcgate::e2e {

std::string read_whole_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace apcgate::e2e
