#include "sim/engine/cluster/rank_directory_writer.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <thread>

#include "sim/engine/ranks/rank_records.h"

namespace ascendsim {

std::uint32_t defaultWriteThreads(std::uint32_t processes) {
    std::uint32_t local = std::max<std::uint32_t>(processes, 1);
    if (const char* value = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE")) {
        const int n = std::atoi(value);
        if (n > 0) local = static_cast<std::uint32_t>(n);
    }
    const std::uint32_t hardware = std::max(1u, std::thread::hardware_concurrency());
    return std::max<std::uint32_t>(1, hardware / local);
}

OutputResult writeRankDirectories(const ClusterResult& cluster, const std::vector<std::uint32_t>& ranks,
                                  const ProfilerConfig& config, const OutputOptions& options, std::uint32_t threads) {
    std::vector<OutputResult> written(ranks.size());
    std::vector<std::exception_ptr> failures(ranks.size());
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    const auto work = [&] {
        for (std::size_t i = next++; i < ranks.size() && !failed; i = next++) {
            try {
                written[i] = writeProfilerOutput(recordOfRank(cluster.of(ranks[i]), ranks[i]), config, options);
            } catch (...) {
                failures[i] = std::current_exception();
                failed = true;
            }
        }
    };
    const std::size_t helpers = std::min<std::size_t>(std::max<std::uint32_t>(threads, 1), ranks.size());
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < helpers; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    for (const std::exception_ptr& e : failures)
        if (e) std::rethrow_exception(e);
    OutputResult all;
    for (const OutputResult& one : written)
        all.directories.insert(all.directories.end(), one.directories.begin(), one.directories.end());
    return all;
}

}  // namespace ascendsim
