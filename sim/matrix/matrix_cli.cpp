#include "sim/matrix/matrix_cli.h"

#include <stdexcept>

namespace ascendsim {

MatrixCli::MatrixCli(CLI::App& app) {
    matrix_ = app.add_subcommand(
        "matrix", "Fixture trees for parser CI: one deterministic run per combination of level, aic_metrics, "
                  "era, export type and ranks, plus MANIFEST.json with every file's sha256 (docs/ci.md)");
    matrix_->add_option("--workload,-w", options_.workloadPath, "Workload YAML file")->required();
    matrix_->add_option("--output,-o", options_.outputDir, "Folder to create (must not exist, or be empty)")
        ->required();
    matrix_->add_option("--levels", levels_, "Levels: Level_none,Level0,Level1,Level2 (L0,L1,L2) or all")
        ->capture_default_str();
    matrix_->add_option("--metrics", metrics_, "aic_metrics groups, or all")->capture_default_str();
    matrix_->add_option("--eras", eras_, "Format versions: 8.3,8.0,2024, or all")->capture_default_str();
    matrix_->add_option("--export", exports_, "Export types: text,db,text+db, or all")->capture_default_str();
    matrix_->add_option("--ranks", ranks_, "Data-parallel world sizes, e.g. 1,2,8 (default: the workload's)");
    matrix_->add_option("--jobs,-j", options_.jobs, "Runs at once (default: the machine's cores)");
    matrix_->add_option("--run-arg", options_.extraArguments,
                        "Passed to every run, e.g. --run-arg=--chip --run-arg=Ascend910B4; repeatable");
}

std::optional<int> MatrixCli::runIfParsed(std::ostream& out, std::ostream& err, bool terminal) {
    if (!matrix_->parsed()) return std::nullopt;
    std::vector<MatrixCombination> plan;
    try {
        plan = planMatrix(parseMatrixAxes(levels_, metrics_, eras_, exports_, ranks_));
    } catch (const std::invalid_argument& e) {
        err << "ascendsim matrix: " << e.what() << "\n";
        return 2;
    }
    options_.terminal = terminal;
    return runMatrix(options_, plan, out, err);
}

}  // namespace ascendsim
