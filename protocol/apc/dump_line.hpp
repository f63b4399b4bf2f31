// One line of `apcgate inspect --dump` text: the byte offset, then words and key=value pairs;
// strings quoted with C escapes, byte payloads as their first 32 bytes in hex. Shared by the
// v6.8 (message_format.hpp) and the Perf-type (perf_framing/frame_format.hpp) dumps.
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>

namespace apcgate::apc {

constexpr std::size_t kShownBytes = 32;

class DumpLine {
  public:
    explicit DumpLine(std::uint64_t offset) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(offset));
        s_ = buf;
    }
    DumpLine& word(const char* w) {
        s_ += ' ';
        s_ += w;
        return *this;
    }
    DumpLine& num(const char* key, std::int64_t v) {
        s_ += ' ';
        s_ += key;
        s_ += '=';
        s_ += std::to_string(v);
        return *this;
    }
    DumpLine& hex(const char* key, std::int64_t v) {
        char buf[24];
        std::snprintf(buf, sizeof buf, " %s=0x%llx", key, static_cast<unsigned long long>(v));
        s_ += buf;
        return *this;
    }
    DumpLine& str(const char* key, std::string_view v) {
        s_ += ' ';
        s_ += key;
        s_ += "=\"";
        for (const char c : v) {
            const auto u = static_cast<unsigned char>(c);
            if (c == '"' || c == '\\') {
                s_ += '\\';
                s_ += c;
            } else if (c == '\n') {
                s_ += "\\n";
            } else if (c == '\r') {
                s_ += "\\r";
            } else if (u < 0x20 || u == 0x7f) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02x", u);
                s_ += buf;
            } else {
                s_ += c;
            }
        }
        s_ += '"';
        return *this;
    }
    DumpLine& bytes(const char* key, std::span<const std::uint8_t> b) {
        num("size", static_cast<std::int64_t>(b.size()));
        s_ += ' ';
        s_ += key;
        s_ += '=';
        char buf[4];
        for (std::size_t i = 0; i < b.size() && i < kShownBytes; ++i) {
            std::snprintf(buf, sizeof buf, "%02x", b[i]);
            s_ += buf;
        }
        if (b.size() > kShownBytes) s_ += "...";
        return *this;
    }
    std::string take() { return std::move(s_); }

  private:
    std::string s_;
};

}  // namespace apcgate::apc
