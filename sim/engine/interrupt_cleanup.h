#pragma once
// SIGINT and SIGTERM during a run: the temporary output registered here is removed, one line
// says so on stderr, and the process exits 130 or 143 (exit_codes.h).
//
// The signals are blocked in the calling thread (and so in every thread it starts later) and
// taken by one watcher thread with sigwait, so the cleanup runs as ordinary code, not inside a
// signal handler. A commit (renaming temporaries into place) holds the same lock, so an
// interrupt either finds the temporaries whole or finds them committed: never half of each.
#include <filesystem>
#include <functional>
#include <vector>

namespace ascendsim {

// Starts the watcher once per process; call before any other thread starts.
void installInterruptCleanup();

// Paths removed (recursively) when a signal arrives while they are registered.
void registerTemporary(const std::filesystem::path& path);
void unregisterTemporary(const std::filesystem::path& path);

// Runs `commit` (which renames temporaries into place) and then unregisters `temporaries`, with
// the watcher held off for the whole of it.
void commitTemporaries(const std::function<void()>& commit,
                       const std::vector<std::filesystem::path>& temporaries);

}  // namespace ascendsim
