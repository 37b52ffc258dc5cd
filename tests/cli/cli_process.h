#pragma once
// Runs the built `ascendsim` binary as a child process (exit codes, signals and stderr are
// properties of the process, not of the in-process engine calls the other tests make).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/scratch_dir.h"

extern char** environ;

namespace ascendsim::cli_test {

namespace fs = std::filesystem;

struct Outcome {
    int exitCode = -1;  // 128 + signal when killed by one
    std::string out, err;
};

inline fs::path sourceDir() {
    const char* env = std::getenv("ASCENDSIM_SOURCE_DIR");
    return env != nullptr ? env : ".";
}

inline std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// True while `pid` runs; peeks without reaping it (WNOWAIT), so waitpid still sees its status.
inline bool stillRunning(pid_t pid) {
    siginfo_t info{};
    return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == 0;
}

inline bool hasEntries(const fs::path& dir) {
    std::error_code ec;
    return fs::directory_iterator(dir, ec) != fs::directory_iterator();
}

// Runs ascendsim with `args`; with a `signal`, sends it once `signalWhenFilled` holds an entry
// (the run's staging folder: the run is then past its start-up, whatever the machine's speed;
// a fixed delay raced a slow start under ASan) or after a minute at most.
inline Outcome runAscendsim(const std::vector<std::string>& args, int signal = 0,
                            const fs::path& signalWhenFilled = {}) {
    const fs::path scratch = testing_scratch::scratchDir("cli_tests");
    const fs::path outFile = scratch / "stdout.txt", errFile = scratch / "stderr.txt";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, outFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> all{ASCENDSIM_BINARY, "--config-dir", (sourceDir() / "configs").string()};
    if (!args.empty() && (args[0] == "chips" || args[0] == "microbench" || args[0] == "compare"))
        all.erase(all.begin() + 1, all.end());
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    Outcome outcome;
    if (posix_spawn(&pid, ASCENDSIM_BINARY, &actions, nullptr, argv.data(), environ) != 0) return outcome;
    posix_spawn_file_actions_destroy(&actions);
    if (signal != 0) {
        const auto giveUp = std::chrono::steady_clock::now() + std::chrono::minutes(1);
        while (!hasEntries(signalWhenFilled) && std::chrono::steady_clock::now() < giveUp &&
               stillRunning(pid))
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        ::kill(pid, signal);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    outcome.out = slurp(outFile);
    outcome.err = slurp(errFile);
    return outcome;
}

inline std::vector<fs::path> entriesOf(const fs::path& dir) {
    std::vector<fs::path> entries;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) entries.push_back(e.path());
    return entries;
}

}  // namespace ascendsim::cli_test
