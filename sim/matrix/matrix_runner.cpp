#include "sim/matrix/matrix_runner.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include "sim/engine/progress_meter.h"
#include "sim/matrix/child_process.h"
#include "sim/matrix/matrix_manifest.h"

namespace ascendsim {

namespace fs = std::filesystem;

namespace {

constexpr int kExitBadInput = 2;

std::string readWhole(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The last non-empty line of a run's stderr: the engine's one-line error message.
std::string lastLine(const std::string& text) {
    std::size_t end = text.find_last_not_of("\r\n");
    if (end == std::string::npos) return "(no message)";
    const std::size_t start = text.rfind('\n', end);
    return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

void checkOutputFolder(const fs::path& dir) {
    std::error_code error;
    if (fs::exists(dir, error) && !(fs::is_directory(dir, error) && fs::is_empty(dir, error))) {
        throw std::invalid_argument("output folder " + dir.string() + " exists and is not empty");
    }
}

struct RunningRun {
    std::size_t outcomeIndex = 0;
    fs::path stderrPath;
};

}  // namespace

int runMatrix(const MatrixOptions& options, const std::vector<MatrixCombination>& plan, std::ostream& out,
              std::ostream& err) {
    const fs::path finalDir = options.outputDir;
    try {
        checkOutputFolder(finalDir);
        if (!fs::is_regular_file(options.workloadPath)) {
            throw std::invalid_argument("workload " + options.workloadPath + " not found");
        }
    } catch (const std::invalid_argument& e) {
        err << "ascendsim matrix: " << e.what() << "\n";
        return kExitBadInput;
    }
    // Everything is built beside the final folder and renamed into place only when complete.
    const fs::path staging = finalDir.string() + ".tmp-" + std::to_string(getpid());
    const fs::path logs = staging / ".run-logs";
    std::vector<MatrixOutcome> outcomes;
    for (const MatrixCombination& c : plan) {
        MatrixOutcome outcome;
        outcome.combination = &c;
        outcome.skipReason = c.skipReason;
        outcomes.push_back(std::move(outcome));
    }
    std::size_t toRun = 0;
    for (const MatrixCombination& c : plan) toRun += c.skipReason.empty() ? 1 : 0;
    std::vector<std::string> failures;
    try {
        fs::create_directories(logs);
        const std::string program = currentProgramPath();
        ProgressMeter progress("ascendsim matrix", toRun, options.terminal, err);
        std::map<pid_t, RunningRun> running;
        std::size_t next = 0;
        const std::size_t jobs = options.jobs > 0 ? options.jobs : std::max<std::size_t>(1, static_cast<std::size_t>(sysconf(_SC_NPROCESSORS_ONLN)));
        while (next < outcomes.size() || !running.empty()) {
            while (running.size() < jobs && next < outcomes.size()) {
                const std::size_t index = next++;
                const MatrixCombination& c = *outcomes[index].combination;
                if (!c.skipReason.empty()) continue;
                std::vector<std::string> arguments = {"--workload", options.workloadPath};
                arguments.insert(arguments.end(), c.runArguments.begin(), c.runArguments.end());
                arguments.insert(arguments.end(), options.extraArguments.begin(), options.extraArguments.end());
                arguments.insert(arguments.end(), {"--deterministic", "-o", (staging / c.name).string()});
                const fs::path stderrPath = logs / (c.name + ".log");
                running[startChild(program, arguments, stderrPath.string())] = {index, stderrPath};
            }
            if (running.empty()) break;
            const ChildExit done = waitForAnyChild();
            const auto found = running.find(done.pid);
            if (found == running.end()) continue;
            MatrixOutcome& outcome = outcomes[found->second.outcomeIndex];
            const std::string messages = readWhole(found->second.stderrPath);
            if (done.exitCode == 0) {
                outcome.written = true;
            } else if (done.exitCode == kExitBadInput) {
                // The engine refused this combination's input: listed as skipped with its reason.
                outcome.skipReason = "rejected by ascendsim: " + lastLine(messages);
                fs::remove_all(staging / outcome.combination->name);
            } else {
                failures.push_back(outcome.combination->name + " (exit " + std::to_string(done.exitCode) +
                                   "):\n" + messages);
            }
            running.erase(found);
            progress.finished(outcome.combination->name);
        }
        std::size_t written = 0;
        for (const MatrixOutcome& o : outcomes) written += o.written ? 1 : 0;
        if (failures.empty() && written == 0 && toRun > 0) {
            err << "ascendsim matrix: every run was rejected; the first: " << outcomes.front().skipReason << "\n";
            fs::remove_all(staging);
            return kExitBadInput;
        }
        if (!failures.empty()) {
            for (const std::string& f : failures) err << "ascendsim matrix: run failed: " << f << "\n";
            fs::remove_all(staging);
            return 1;
        }
        fs::remove_all(logs);
        writeMatrixManifest(staging.string(), options.workloadPath, options.extraArguments, outcomes);
        if (fs::exists(finalDir)) fs::remove(finalDir);  // empty, checked above
        fs::rename(staging, finalDir);
        out << "ascendsim matrix: " << written << " trees written, " << (outcomes.size() - written)
            << " combinations skipped; " << (finalDir / "MANIFEST.json").string() << "\n";
        std::map<std::string, std::size_t> skippedByReason;
        for (const MatrixOutcome& o : outcomes) {
            if (!o.written) ++skippedByReason[o.skipReason];
        }
        for (const auto& [reason, count] : skippedByReason) out << "  " << count << " skipped: " << reason << "\n";
        return 0;
    } catch (const std::exception& e) {
        err << "ascendsim matrix: " << e.what() << "\n";
        std::error_code ignored;
        fs::remove_all(staging, ignored);
        return 1;
    }
}

}  // namespace ascendsim
