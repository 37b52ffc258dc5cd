#include "sim/mpi/mpi_rank_exchange.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#ifdef ASCENDSIM_HAVE_MPI
#include <mpi.h>
#endif

namespace ascendsim {

namespace {

// The process count mpirun announced; 1 when not started by a launcher.
int launcherProcessCount() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
        if (const char* value = std::getenv(name)) return std::max(1, std::atoi(value));
    }
    return 1;
}

#ifdef ASCENDSIM_HAVE_MPI

void check(int code, const char* call) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw std::runtime_error(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

// Waits for a non-blocking MPI operation by polling it between sleeps. OpenMPI's blocking
// collectives spin in opal_progress while the other process still simulates or writes: on a
// machine with as many cores as processes that spin takes the core the other process needs (and
// counts as this process's CPU time). A sleep of at most 1 ms between polls adds at most that
// much to a round that waits at all (docs/performance.md "MPI: where the time goes").
void waitSleeping(MPI_Request& request, const char* call) {
    auto pause = std::chrono::microseconds(20);
    for (;;) {
        int done = 0;
        check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), call);
        if (done) return;
        std::this_thread::sleep_for(pause);
        pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::milliseconds(1));
    }
}

class MpiRankExchange final : public RankExchange {
  public:
    MpiRankExchange() {
        check(MPI_Init(nullptr, nullptr), "MPI_Init");
        int rank = 0, size = 1;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        index_ = static_cast<std::uint32_t>(rank);
        count_ = static_cast<std::uint32_t>(size);
    }
    // A process that has written its directories sleeps until the others have too, instead of
    // spinning in MPI_Finalize's synchronisation.
    ~MpiRankExchange() override {
        try {
            MPI_Request request = MPI_REQUEST_NULL;
            check(MPI_Ibarrier(MPI_COMM_WORLD, &request), "MPI_Ibarrier");
            waitSleeping(request, "MPI_Ibarrier");
        } catch (const std::exception&) {
            // MPI_Finalize reports the failure of the others; nothing is left to write here.
        }
        MPI_Finalize();
    }
    MpiRankExchange(const MpiRankExchange&) = delete;
    MpiRankExchange& operator=(const MpiRankExchange&) = delete;

    std::uint32_t processIndex() const override { return index_; }
    std::uint32_t processCount() const override { return count_; }

    // Each process sends [entry index, length, values...] for its non-empty entries; an
    // all-gather of the lengths, then of the data.
    std::vector<std::vector<std::uint64_t>> share(const std::vector<std::vector<std::uint64_t>>& mine) override {
        std::vector<std::uint64_t> packed;
        for (std::size_t i = 0; i < mine.size(); ++i) {
            if (mine[i].empty()) continue;
            packed.push_back(i);
            packed.push_back(mine[i].size());
            packed.insert(packed.end(), mine[i].begin(), mine[i].end());
        }
        int length = static_cast<int>(packed.size());
        std::vector<int> lengths(count_), offsets(count_);
        const auto start = std::chrono::steady_clock::now();
        MPI_Request request = MPI_REQUEST_NULL;
        check(MPI_Iallgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD, &request),
              "MPI_Iallgather");
        waitSleeping(request, "MPI_Iallgather");
        int total = 0;
        for (std::uint32_t p = 0; p < count_; ++p) {
            offsets[p] = total;
            total += lengths[p];
        }
        std::vector<std::uint64_t> all(static_cast<std::size_t>(total));
        check(MPI_Iallgatherv(packed.data(), length, MPI_UINT64_T, all.data(), lengths.data(), offsets.data(),
                              MPI_UINT64_T, MPI_COMM_WORLD, &request),
              "MPI_Iallgatherv");
        waitSleeping(request, "MPI_Iallgatherv");
        waitedSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::vector<std::vector<std::uint64_t>> shared(mine.size());
        for (std::size_t at = 0; at + 1 < all.size();) {
            const std::size_t index = all[at], size = all[at + 1];
            if (index >= shared.size() || at + 2 + size > all.size())
                throw std::runtime_error("a process sent arrivals of a rank variant this one does not know");
            shared[index].assign(all.begin() + static_cast<std::ptrdiff_t>(at + 2),
                                 all.begin() + static_cast<std::ptrdiff_t>(at + 2 + size));
            at += 2 + size;
        }
        return shared;
    }

    double waitedSeconds() const override { return waitedSeconds_; }

  private:
    std::uint32_t index_ = 0;
    std::uint32_t count_ = 1;
    double waitedSeconds_ = 0.0;
};

#endif

}  // namespace

bool builtWithMpi() {
#ifdef ASCENDSIM_HAVE_MPI
    return true;
#else
    return false;
#endif
}

std::unique_ptr<RankExchange> makeProcessExchange() {
    const int processes = launcherProcessCount();
    if (processes <= 1) return std::make_unique<SingleProcessExchange>();
#ifdef ASCENDSIM_HAVE_MPI
    return std::make_unique<MpiRankExchange>();
#else
    throw std::runtime_error("started by mpirun with " + std::to_string(processes) +
                             " processes, but this ascendsim was built without MPI (install libopenmpi-dev and "
                             "rebuild)");
#endif
}

}  // namespace ascendsim
