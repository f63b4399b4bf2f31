// Configurations as large as a stored one may be (xml::kMaxDocumentBytes), for the tests that
// check the largest is kept and one counter more is refused (tests/daemon: the store itself;
// tests/e2e: the daemon across a restart).
#pragma once

#include <cstddef>
#include <string>

#include "xml/documents.hpp"

namespace apcgate::xml::testing {

// `n` counters c00000000, c00000001, ...: every entry has the same length, so each one more
// adds the same number of bytes to the written document.
inline model::Configuration numbered_counters(std::size_t n) {
    model::Configuration c;
    for (std::size_t i = 0; i < n; ++i) {
        std::string name = std::to_string(i);
        name.insert(0, 8 - name.size(), '0');  // every entry the same length
        c.counters.push_back({"c" + name, {}, {}, {}});
    }
    return c;
}

// The most numbered counters whose written configuration fits in kMaxDocumentBytes.
inline std::size_t most_storable_numbered_counters() {
    const std::size_t one = write_configuration(numbered_counters(1)).size();
    const std::size_t per_entry = write_configuration(numbered_counters(2)).size() - one;
    return (kMaxDocumentBytes - one) / per_entry + 1;
}

}  // namespace apcgate::xml::testing
