// Making arbitrary strings safe inside an XML attribute. Counter names and titles come from
// sysfs, hwmon labels, trace files and annotation channels: they may hold markup characters,
// non-ASCII text, or bytes that are not UTF-8 at all. Markup characters are escaped; what XML 1.0
// cannot carry (invalid UTF-8, control characters, U+FFFE/U+FFFF) is dropped rather than
// emitted as a document Streamline would reject.
#pragma once

#include <string>
#include <string_view>

namespace apcgate::xml {

// `text` with invalid UTF-8 sequences (bad lead or continuation bytes, overlong forms,
// surrogates, beyond U+10FFFF) and characters XML 1.0 does not allow or discourages (C0 controls
// other than tab/LF/CR, DEL, C1 controls, U+FFFE, U+FFFF) removed.
std::string sanitize_xml_text(std::string_view text);

// Appends `text`, sanitised, escaped for a double-quoted attribute value. Tab, LF and CR become
// character references so that attribute-value normalisation does not turn them into spaces.
void append_attribute_value(std::string& out, std::string_view text);

}  // namespace apcgate::xml
