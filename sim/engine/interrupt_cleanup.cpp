#include "sim/engine/interrupt_cleanup.h"

#include <signal.h>
#include <unistd.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sim/engine/exit_codes.h"

namespace ascendsim {

namespace fs = std::filesystem;

namespace {

std::mutex& registryMutex() {
    static std::mutex m;
    return m;
}

std::vector<fs::path>& registry() {
    static std::vector<fs::path> paths;
    return paths;
}

// The main thread may still be writing into `path`: renaming it first makes its later writes
// fail instead of landing in a tree being removed; removing `path` again catches a directory
// that a write recreated in between.
void removeTemporary(const fs::path& path) {
    std::error_code ec;
    fs::path doomed = path;
    doomed += ".interrupted";
    fs::rename(path, doomed, ec);
    fs::remove_all(ec ? path : doomed, ec);
    fs::remove_all(path, ec);
}

void watch(sigset_t signals) {
    int signal = 0;
    while (sigwait(&signals, &signal) != 0) {
    }
    std::lock_guard<std::mutex> lock(registryMutex());
    for (const auto& path : registry()) removeTemporary(path);
    const std::string line = std::string("ascendsim: interrupted by ") +
                             (signal == SIGINT ? "SIGINT" : "SIGTERM") +
                             (registry().empty() ? "" : "; temporary output removed") + "\n";
    ssize_t ignored = ::write(STDERR_FILENO, line.data(), line.size());
    (void)ignored;
    ::_exit(kExitSignalBase + signal);
}

}  // namespace

void installInterruptCleanup() {
    static std::once_flag once;
    std::call_once(once, [] {
        sigset_t signals;
        sigemptyset(&signals);
        sigaddset(&signals, SIGINT);
        sigaddset(&signals, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &signals, nullptr);
        std::thread(watch, signals).detach();
    });
}

void registerTemporary(const fs::path& path) {
    std::lock_guard<std::mutex> lock(registryMutex());
    registry().push_back(path);
}

void unregisterTemporary(const fs::path& path) {
    std::lock_guard<std::mutex> lock(registryMutex());
    std::erase(registry(), path);
}

void commitTemporaries(const std::function<void()>& commit,
                       const std::vector<fs::path>& temporaries) {
    std::lock_guard<std::mutex> lock(registryMutex());
    commit();
    for (const auto& path : temporaries) std::erase(registry(), path);
}

}  // namespace ascendsim
