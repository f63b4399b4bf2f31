// What a reader of a mapped input reports when the file turned out to be cut short while it was
// being read (wire::MappedFile::cut_at(): past the cut the mapping reads as zeros).
#pragma once

#include <cstddef>

#include "protocol/wire/mapped_file.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::collectors::ingest {

// The problem for `input`, cut at offset `cut` (MappedFile::cut_at()) while it was read.
Error input_cut_error(const wire::MappedFile& input, std::size_t cut);

}  // namespace apcgate::collectors::ingest
