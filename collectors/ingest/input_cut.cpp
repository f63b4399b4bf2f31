#include "collectors/ingest/input_cut.hpp"

#include <string>

namespace apcgate::collectors::ingest {

Error input_cut_error(const wire::MappedFile& input, std::size_t cut) {
    Error e = Error::at(ErrorKind::Truncated,
                        "the file was cut short while it was being read: it had " +
                            std::to_string(input.bytes().size()) +
                            " bytes when it was opened and ends here now; reading stopped, and "
                            "the last batch decoded (which may hold the zeros read past the cut) "
                            "is not in the capture");
    e.offset = cut;
    e.record = "file";
    return e;
}

}  // namespace apcgate::collectors::ingest
