#include "sim/engine/output_transaction.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <regex>
#include <stdexcept>

#include "sim/engine/exit_codes.h"
#include "sim/engine/interrupt_cleanup.h"

namespace ascendsim {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kStagingPrefix = ".ascendsim-staging-";
constexpr std::string_view kFileTag = ".ascendsim-tmp-";

// This host's name as temporaries spell it: the part that identifies whose pid it is.
const std::string& hostTag() {
    static const std::string tag = [] {
        char name[256] = {};
        if (::gethostname(name, sizeof name - 1) != 0) return std::string("host");
        std::string out = name;
        for (char& c : out) {
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.') c = '_';
        }
        return out;
    }();
    return tag;
}

std::string ownerTag() { return hostTag() + "-" + std::to_string(::getpid()); }

bool processGone(long pid) {
    return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

[[noreturn]] void unusable(const std::string& option, const fs::path& path,
                           const std::string& why) {
    throw UsageError(option + " '" + path.string() + "': " + why);
}

// The folder must exist (or be creatable by the caller) and accept new entries.
void requireWritableFolder(const std::string& option, const fs::path& folder) {
    std::error_code ec;
    const fs::file_status status = fs::status(folder, ec);
    if (!fs::exists(status)) unusable(option, folder, "folder does not exist");
    if (!fs::is_directory(status)) unusable(option, folder, "is not a folder");
    if (::access(folder.c_str(), W_OK | X_OK) != 0) unusable(option, folder, std::strerror(errno));
}

}  // namespace

void checkPathComponent(const std::string& name, const std::string& option) {
    const bool plain = !name.empty() && name != "." && name != ".." &&
                       name.find('/') == std::string::npos &&
                       name.find('\0') == std::string::npos && name.size() <= 128;
    if (!plain) {
        throw UsageError(option + " '" + name +
                         "': must be a plain name of 1..128 characters (no '/', not '.' or '..'): "
                         "it becomes part of the output directory's name");
    }
}

std::size_t removeStaleTemporaries(const fs::path& folder) {
    static const std::regex ours("^\\.(?:ascendsim-staging-|.*\\.ascendsim-tmp-)(.+)-([0-9]+)$");
    static const std::regex older("^\\..*_ascend_pt(?:_op_args)?\\.tmp-([0-9]+)-[0-9]+$");
    std::size_t removed = 0;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        std::smatch m;
        long pid = 0;
        if (std::regex_match(name, m, ours) && m[1] == hostTag())
            pid = std::stol(m[2]);
        else if (std::regex_match(name, m, older))
            pid = std::stol(m[1]);
        if (!processGone(pid)) continue;
        std::error_code removeError;
        fs::remove_all(entry.path(), removeError);
        removed += !removeError;
    }
    return removed;
}

OutputTransaction::OutputTransaction(const SimulationOptions& options)
    : outputFolder_(options.outputParent.empty() ? fs::path(".") : fs::path(options.outputParent)) {
    if (options.workerName) checkPathComponent(*options.workerName, "--worker-name");
    if (options.hostname) checkPathComponent(*options.hostname, "--hostname");
    std::error_code ec;
    const std::vector<std::pair<std::string, std::string>> files = {
        {"--report", options.reportPath == "-" ? "" : options.reportPath},
        {"--chrome-trace", options.chromeTracePath},
        {"--core-trace", options.coreTracePath},
        {"--html", options.htmlPath}};
    for (const auto& [option, path] : files) {
        if (path.empty()) continue;
        const fs::path file(path);
        const fs::file_status status = fs::status(file, ec);
        if (fs::is_directory(status)) unusable(option, file, "is a folder");
        if (fs::exists(status) && ::access(file.c_str(), W_OK) != 0)
            unusable(option, file, std::strerror(errno));
        if (!fs::exists(status) || fs::is_regular_file(status)) {
            const fs::path parent = file.has_parent_path() ? file.parent_path() : fs::path(".");
            requireWritableFolder(option, parent);
            removeStaleTemporaries(parent);
        }
    }
    try {
        // The output folder: create what is missing, remembering it so a failed run removes it.
        std::vector<fs::path> missing;
        for (fs::path p = fs::absolute(outputFolder_); !p.empty() && !fs::exists(p, ec);
             p = p.parent_path()) {
            missing.insert(missing.begin(), p);
            if (p == p.parent_path()) break;
        }
        for (const auto& p : missing) {
            if (!fs::create_directory(p, ec) && ec) unusable(options.outputOption, outputFolder_, ec.message());
            createdFolders_.push_back(p);
        }
        requireWritableFolder(options.outputOption, outputFolder_);
        removeStaleTemporaries(outputFolder_);
        installInterruptCleanup();
        staging_ = outputFolder_ / (std::string(kStagingPrefix) + ownerTag());
        registerTemporary(staging_);
        fs::remove_all(staging_, ec);  // a leftover of this very pid (pid reuse)
        if (!fs::create_directory(staging_, ec) && ec)
            throw fs::filesystem_error("cannot create the staging folder", staging_, ec);
    } catch (...) {
        rollBack();
        throw;
    }
}

OutputTransaction::~OutputTransaction() {
    if (!committed_) rollBack();
}

void OutputTransaction::rollBack() noexcept {
    std::error_code ec;
    if (!staging_.empty()) {
        fs::remove_all(staging_, ec);
        unregisterTemporary(staging_);
    }
    for (const auto& f : files_) {
        if (f.temporary == f.final) continue;
        fs::remove(f.temporary, ec);
        unregisterTemporary(f.temporary);
    }
    for (auto it = createdFolders_.rbegin(); it != createdFolders_.rend(); ++it)
        fs::remove(*it, ec);  // only while empty
}

fs::path OutputTransaction::stageFile(const fs::path& finalPath) {
    std::error_code ec;
    const fs::file_status status = fs::status(finalPath, ec);
    if (fs::exists(status) && !fs::is_regular_file(status)) {
        files_.push_back({finalPath, finalPath});  // a device or pipe: written in place
        return finalPath;
    }
    std::string name(1, '.');
    name.append(finalPath.filename().string()).append(kFileTag).append(ownerTag());
    const fs::path temporary = finalPath.parent_path() / name;
    registerTemporary(temporary);
    files_.push_back({temporary, finalPath});
    return temporary;
}

void OutputTransaction::commit() {
    std::vector<fs::path> temporaries{staging_};
    for (const auto& f : files_) temporaries.push_back(f.temporary);
    commitTemporaries(
        [&] {
            std::vector<fs::path> staged;
            for (const auto& entry : fs::directory_iterator(staging_)) staged.push_back(entry.path());
            std::sort(staged.begin(), staged.end());
            for (const auto& dir : staged) {
                if (fs::exists(outputFolder_ / dir.filename()))
                    throw std::runtime_error("output directory already exists: " +
                                             (outputFolder_ / dir.filename()).string());
            }
            std::vector<fs::path> moved;
            try {
                for (const auto& dir : staged) {
                    fs::rename(dir, outputFolder_ / dir.filename());
                    moved.push_back(outputFolder_ / dir.filename());
                }
                for (const auto& f : files_) {
                    if (f.temporary != f.final) fs::rename(f.temporary, f.final);
                }
            } catch (...) {
                std::error_code ec;
                for (const auto& dir : moved) fs::remove_all(dir, ec);
                throw;
            }
            fs::remove(staging_);
        },
        temporaries);
    committed_ = true;
}

}  // namespace ascendsim
