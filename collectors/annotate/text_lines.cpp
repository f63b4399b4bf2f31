// See text_lines.hpp for the line grammar.
#include "collectors/annotate/text_lines.hpp"

#include <algorithm>

namespace apcgate::collectors::annotate {

namespace {
constexpr std::uint8_t kColourEscape = 0x1B;
constexpr std::uint8_t kBinaryEscape = 0x1C;
}  // namespace

TextLine TextLineTokenizer::take() {
    TextLine out = std::move(line_);
    if (!out.text.empty() && out.text.back() == '\r') out.text.pop_back();
    out.binary = !out.colour && !out.text.empty() &&
                 static_cast<std::uint8_t>(out.text.front()) == kBinaryEscape;
    line_ = TextLine{};
    state_ = State::LineStart;
    colour_got_ = 0;
    pending_ = false;
    return out;
}

std::optional<TextLine> TextLineTokenizer::next(std::span<const std::uint8_t>& in) {
    while (!in.empty()) {
        if (state_ == State::LineStart) {
            line_.offset = offset_;
            pending_ = true;
            if (in.front() == kColourEscape) {
                in = in.subspan(1);
                ++offset_;
                state_ = State::Colour;
                continue;
            }
            state_ = State::Text;
        }
        if (state_ == State::Colour) {
            colour_[colour_got_++] = in.front();
            in = in.subspan(1);
            ++offset_;
            if (colour_got_ == 3) {
                line_.colour = model::Rgb{colour_[0], colour_[1], colour_[2]};
                state_ = State::Text;
            }
            continue;
        }
        const auto nl = std::find(in.begin(), in.end(), std::uint8_t{'\n'});
        const bool found = nl != in.end();
        const auto n = static_cast<std::size_t>(nl - in.begin());
        const std::size_t room = max_text_ - std::min(max_text_, line_.text.size());
        line_.text.append(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(std::min(n, room)));
        if (n > room) line_.truncated = true;
        const std::size_t used = found ? n + 1 : n;
        in = in.subspan(used);
        offset_ += used;
        if (!found) continue;  // `in` is used up; the line goes on in the next bytes
        return take();
    }
    return std::nullopt;
}

std::optional<TextLine> TextLineTokenizer::finish() {
    if (!pending_) return std::nullopt;
    // A colour cut short has no text; what arrived of it is dropped with the line's colour.
    return take();
}

}  // namespace apcgate::collectors::annotate
