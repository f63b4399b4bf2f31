#include "collectors/ctf/deferred_texts.hpp"

namespace apcgate::collectors::ctf {

void DeferredTexts::apply(std::vector<model::Event>& events) const {
    for (const Slice& s : slices_) {
        if (s.event >= events.size()) continue;
        auto* a = std::get_if<model::Annotation>(&events[s.event]);
        auto* text = a != nullptr ? std::get_if<model::StringAnnotation>(&a->body) : nullptr;
        if (text != nullptr) text->text.assign(bytes_, s.offset, s.length);
    }
}

}  // namespace apcgate::collectors::ctf
