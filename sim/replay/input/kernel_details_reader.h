#pragma once
// kernel_details.csv (the text export) → RealProfile. Recognises every era `--format-version`
// writes from the header alone: a Device_id column is CANN 8.3, aic_/aiv_ PMU columns or a
// Mix Block Dim column CANN 8.0 (910B, early 2025), unprefixed total_cycles (or neither Mix Block
// Dim nor a prefix) the 2024 910A layout. Level0 files (8 columns, no tensors) read as a profile
// with no shapes.
#include <filesystem>
#include <string_view>

#include "sim/replay/input/real_profile.h"

namespace ascendsim {

// Throws ReplayInputError naming the file, line and field on bad content; std::system_error
// (errno text) when the file cannot be read.
RealProfile readKernelDetailsCsv(const std::filesystem::path& file);

// Same, from text already read (`source` names it in messages).
RealProfile parseKernelDetailsCsv(std::string_view text, const std::filesystem::path& source);

// A shape cell without the literal quotes CANN puts around it: "\"32,3\"" → "32,3".
std::string unquoteCell(const std::string& cell);

// Communication tasks (hcom_* types, COMMUNICATION/HCCL cores) are excluded from compute time.
bool isCommunicationTask(std::string_view type, std::string_view acceleratorCore);

}  // namespace ascendsim
