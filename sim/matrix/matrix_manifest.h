#pragma once
// MANIFEST.json of a fixture matrix: every combination with its options and status, and for each
// written tree every file with its size and SHA-256, so a parser's CI can pin the fixtures and see
// any format change between ascendsim versions. Deterministic: sorted, no times, relative paths.
#include <string>
#include <vector>

#include "sim/matrix/matrix_plan.h"

namespace ascendsim {

struct MatrixOutcome {
    const MatrixCombination* combination = nullptr;
    bool written = false;
    std::string skipReason;  // planned skip, or the run's own rejection message
};

// Writes `matrixDir`/MANIFEST.json; each written combination's tree is `matrixDir`/<name>.
void writeMatrixManifest(const std::string& matrixDir, const std::string& workloadPath,
                         const std::vector<std::string>& extraArguments, const std::vector<MatrixOutcome>& outcomes);

}  // namespace ascendsim
