#include "daemon/service/config_store.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "xml/documents.hpp"

namespace apcgate::daemon {

std::filesystem::path default_state_dir() {
    if (const char* sd = std::getenv("STATE_DIRECTORY"); sd != nullptr && *sd != '\0') {
        std::string first(sd);  // systemd passes a colon-separated list
        return first.substr(0, first.find(':'));
    }
    if (::geteuid() == 0) return "/var/lib/apcgate";
    if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg != nullptr && *xdg == '/')
        return std::filesystem::path(xdg) / "apcgate";
    if (const char* home = std::getenv("HOME"); home != nullptr && *home == '/')
        return std::filesystem::path(home) / ".local/state/apcgate";
    return std::filesystem::temp_directory_path() / ("apcgate-" + std::to_string(::geteuid()));
}

Result<std::optional<model::Configuration>> ConfigStore::load() const {
    std::ifstream in(file(), std::ios::binary);
    if (!in) return std::optional<model::Configuration>{};
    // One byte over the limit is enough for the parser to refuse the file as too large.
    std::string text(xml::kMaxDocumentBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    auto parsed = xml::parse_configuration(text);
    if (!parsed) return std::move(parsed).take_error().while_("reading " + file().string());
    return std::optional<model::Configuration>{std::move(parsed).value()};
}

Result<std::string> ConfigStore::encode(const model::Configuration& config) {
    std::string text = xml::write_configuration(config);
    if (text.size() > xml::kMaxDocumentBytes) {
        return Error::at(ErrorKind::Limit,
                         "a configuration of " + std::to_string(config.counters.size()) +
                             " counters takes " + std::to_string(text.size()) +
                             " bytes when stored, more than the " +
                             std::to_string(xml::kMaxDocumentBytes) +
                             " bytes a stored configuration may have; configure fewer counters");
    }
    auto back = xml::parse_configuration(text);
    if (!back) return std::move(back).take_error().while_("reading the configuration to be stored");
    if (back->counters.size() != config.counters.size()) {
        return Error::at(ErrorKind::Internal, "the configuration to be stored reads back as " +
                                                  std::to_string(back->counters.size()) +
                                                  " counters, not " +
                                                  std::to_string(config.counters.size()));
    }
    return text;
}

Status ConfigStore::save(const model::Configuration& config) const {
    auto text = encode(config);
    if (!text) return std::move(text).take_error();
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec)
        return Error::at(ErrorKind::Io, "cannot create state directory: " + ec.message())
            .in_input(dir_.string());
    const auto tmp = dir_ / ".configuration.xml.tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << *text;
        if (!out.flush()) return Error::at(ErrorKind::Io, "cannot write").in_input(tmp.string());
    }
    std::filesystem::rename(tmp, file(), ec);
    if (ec)
        return Error::at(ErrorKind::Io, "cannot rename: " + ec.message()).in_input(file().string());
    return {};
}

}  // namespace apcgate::daemon
