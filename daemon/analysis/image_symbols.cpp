#include "daemon/analysis/image_symbols.hpp"

#include <algorithm>
#include <cstdio>
#include <system_error>

#include "collectors/xray/debug_file.hpp"
#include "collectors/xray/function_names.hpp"

namespace apcgate::daemon::analysis {

namespace {

std::string hex_offset(const std::string& image, std::int64_t offset) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "+0x%llx", static_cast<unsigned long long>(offset));  // NOLINT
    const auto slash = image.rfind('/');
    return (slash == std::string::npos ? image : image.substr(slash + 1)) + buf;
}

bool readable_file(const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec);
}

}  // namespace

void ImageSymbols::name_cookie(std::int32_t cookie, std::string path) {
    auto [it, added] = by_path_.try_emplace(path, static_cast<std::uint32_t>(images_.size()));
    if (added) {
        Image img;
        img.path = std::move(path);
        images_.push_back(std::move(img));
    }
    by_cookie_[cookie] = it->second;
}

std::uint32_t ImageSymbols::image_index(std::int32_t cookie) {
    auto it = by_cookie_.find(cookie);
    return it == by_cookie_.end() ? 0 : it->second;
}

void ImageSymbols::load(Image& img) {
    img.loaded = true;
    const std::filesystem::path path(img.path);
    std::vector<std::filesystem::path> candidates;
    for (const auto& dir : options_.binary_dirs) candidates.push_back(dir / path.filename());
    if (!options_.sysroot.empty()) candidates.push_back(options_.sysroot / path.relative_path());
    if (options_.binary_dirs.empty() && options_.sysroot.empty()) candidates.push_back(path);
    for (const auto& c : candidates) {
        if (!readable_file(c)) continue;
        auto elf = collectors::xray::read_elf_symbols(c);
        if (!elf) continue;
        img.read_from = c;
        img.segments = elf->segments;
        img.functions = std::move(elf->functions);
        if (elf->symbols != collectors::xray::SymbolTable::Symtab) {
            auto debug = collectors::xray::find_debug_file(c, *elf, options_.debug_dirs);
            if (debug.found) img.functions = std::move(debug.functions);
        }
        std::sort(img.functions.begin(), img.functions.end(),
                  [](const auto& a, const auto& b) { return a.address < b.address; });
        return;
    }
}

ResolvedFrame ImageSymbols::resolve(std::int32_t cookie, std::int64_t offset) {
    if (cookie == 0) {
        if (auto name = kernel_.function_at(static_cast<std::uint64_t>(offset)))
            return {"[kernel] " + *name, 0};
        return {"[kernel]", 0};
    }
    const std::uint32_t index = image_index(cookie);
    if (cookie < 0 || index == 0) return {"[unknown]", 0};
    Image& img = images_[index];
    if (!img.loaded) load(img);
    const auto off = static_cast<std::uint64_t>(offset);
    std::optional<std::uint64_t> address;
    for (const auto& s : img.segments) {
        if (off >= s.offset && off - s.offset < s.file_size) {
            address = s.vaddr + (off - s.offset);
            break;
        }
    }
    if (address && !img.functions.empty()) {
        auto it = std::upper_bound(img.functions.begin(), img.functions.end(), *address,
                                   [](std::uint64_t a, const auto& s) { return a < s.address; });
        if (it != img.functions.begin()) {
            --it;
            // A symbol without a size covers up to the next one.
            if (it->size == 0 || *address - it->address < it->size) {
                ++img.resolved;
                return {collectors::xray::FunctionNames::demangle(it->name), index};
            }
        }
    }
    ++img.unresolved;
    return {hex_offset(img.path, offset), index};
}

std::vector<std::string> ImageSymbols::unreadable() const {
    std::vector<std::string> out;
    for (const auto& img : images_)
        if (img.loaded && img.read_from.empty()) out.push_back(img.path);
    return out;
}

}  // namespace apcgate::daemon::analysis
