#pragma once
// The quirks that rewrite or remove files of a finished *_ascend_pt directory (before it is
// renamed into place). Each mirrors a real sample; docs/ci.md names it.
#include <cstdint>
#include <filesystem>
#include <string>

#include "profiler/quirks/quirk_set.h"

namespace ascendsim {

// Applies the file quirks of `quirks` to the directory `dir` written for rank `rankId`.
void applyFileQuirks(const QuirkSet& quirks, const std::filesystem::path& dir, std::int64_t rankId);

// A number as a spreadsheet's General format shows a large value: six significant digits in
// scientific notation, trailing zeros dropped ("1695120000000000" -> "1.69512E+15"); values under
// 1e11 keep up to 6 significant digits without an exponent. Text that is not a number is returned as is.
std::string spreadsheetGeneralNumber(const std::string& text);

}  // namespace ascendsim
