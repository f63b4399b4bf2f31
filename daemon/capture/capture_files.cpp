#include "daemon/capture/capture_files.hpp"

#include <fstream>
#include <sstream>

#include "daemon/capture/apc_directory.hpp"

namespace apcgate::daemon {

std::optional<std::string> read_document(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

Result<xml::CapturedDoc> read_captured(const std::filesystem::path& dir) {
    const auto text = read_document(dir / "captured.xml");
    if (!text) return Error::at(ErrorKind::Io, "cannot read captured.xml").in_input(dir.string());
    auto captured = xml::parse_captured(*text);
    if (!captured)
        return std::move(captured).take_error().in_input((dir / "captured.xml").string());
    return captured;
}

std::vector<xml::EventInfo> read_event_infos(const std::filesystem::path& dir) {
    const auto text = read_document(dir / "events.xml");
    if (!text) return {};
    auto parsed = xml::parse_events(*text);
    if (!parsed) return {};
    return std::move(parsed).value();
}

Result<CaptureFiles> open_capture_files(const std::filesystem::path& dir) {
    auto captured = read_captured(dir);
    if (!captured) return std::move(captured).take_error();
    CaptureFiles files;
    files.captured = std::move(captured).value();
    files.data_path = dir / kApcDataFile;
    auto data = wire::MappedFile::open(files.data_path);
    if (!data) return std::move(data).take_error();
    files.data = std::move(data).value();
    return files;
}

}  // namespace apcgate::daemon
