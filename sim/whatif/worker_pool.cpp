#include "sim/whatif/worker_pool.h"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <map>
#include <stdexcept>
#include <thread>

namespace ascendsim {

namespace {

struct Running {
    pid_t pid = -1;
    int fd = -1;
    std::string received;
};

void writeAll(int fd, const std::string& data) {
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += static_cast<std::size_t>(n);
    }
}

[[noreturn]] void runChild(int fd, std::size_t index, const std::function<TaskOutcome(std::size_t)>& task) {
    TaskOutcome outcome;
    try {
        outcome = task(index);
    } catch (const std::exception& e) {
        outcome = {1, e.what()};
    }
    writeAll(fd, std::to_string(outcome.exitCode) + "\n" + outcome.text);
    ::close(fd);
    std::fflush(nullptr);
    ::_exit(0);
}

TaskOutcome finish(Running& r, std::size_t index) {
    int status = 0;
    while (::waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
    }
    ::close(r.fd);
    const std::size_t newline = r.received.find('\n');
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || newline == std::string::npos) {
        const std::string how = WIFSIGNALED(status) ? "was killed by signal " + std::to_string(WTERMSIG(status))
                                                    : "ended without a result";
        return {1, "the worker for point " + std::to_string(index + 1) + " " + how};
    }
    return {std::stoi(r.received.substr(0, newline)), r.received.substr(newline + 1)};
}

}  // namespace

unsigned defaultJobs() { return std::max(1u, std::thread::hardware_concurrency()); }

std::vector<TaskOutcome> runTasks(std::size_t count, unsigned jobs, const std::function<TaskOutcome(std::size_t)>& task,
                                  const std::function<void(std::size_t, const TaskOutcome&)>& onFinished) {
    std::vector<TaskOutcome> outcomes(count);
    if (jobs <= 1) {
        for (std::size_t i = 0; i < count; ++i) {
            try {
                outcomes[i] = task(i);
            } catch (const std::exception& e) {
                outcomes[i] = {1, e.what()};
            }
            onFinished(i, outcomes[i]);
        }
        return outcomes;
    }
    std::fflush(nullptr);  // the children must not print the parent's buffered output again
    std::map<std::size_t, Running> running;
    std::size_t next = 0;
    while (next < count || !running.empty()) {
        while (next < count && running.size() < jobs) {
            int fds[2];
            if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
            const pid_t pid = ::fork();
            if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
            if (pid == 0) {
                ::close(fds[0]);
                for (auto& [i, r] : running) ::close(r.fd);
                runChild(fds[1], next, task);
            }
            ::close(fds[1]);
            running[next] = {pid, fds[0], {}};
            ++next;
        }
        std::vector<pollfd> polls;
        std::vector<std::size_t> indices;
        for (auto& [i, r] : running) {
            polls.push_back({r.fd, POLLIN, 0});
            indices.push_back(i);
        }
        if (::poll(polls.data(), polls.size(), -1) < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
        }
        for (std::size_t p = 0; p < polls.size(); ++p) {
            if (polls[p].revents == 0) continue;
            Running& r = running.at(indices[p]);
            char buffer[65536];
            const ssize_t n = ::read(r.fd, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n > 0) {
                r.received.append(buffer, static_cast<std::size_t>(n));
                continue;
            }
            outcomes[indices[p]] = finish(r, indices[p]);
            running.erase(indices[p]);
            onFinished(indices[p], outcomes[indices[p]]);
        }
    }
    return outcomes;
}

}  // namespace ascendsim
