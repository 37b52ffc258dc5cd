#pragma once
// PROF_*/device_{id}/data/l2_cache.data.{id}.slice_0 (ACL_PROF_L2CACHE, sample.json
// l2CacheTaskProfiling): one 72-byte RawL2Cache record per AI Core / AI Vector task, in start order,
// with the counts of the events sample.json lists as `l2CacheTaskProfilingEvents`.
//
// msprof computes l2_cache's rates from those events by chip (Ascend/msprof analysis/msconfig/
// l2_cache_config.py L2CacheConfig, mscalculate/l2_cache/l2_cache_calculator.py):
//   Hit Rate = sum(hit events) / sum(request events), Victim Rate = sum(victim events) / sum(request events)
//   platform "1" (910A): request 0x59, hit 0x5b, victim 0x5c
//   platform "4" (310P): request 0x78 + 0x79, hit 0x6a, victim 0x71
//   platform "5" (910B): request 0xfb + 0xfc, hit 0x90 + 0x91, victim 0x9c
// and ascendsim's l2_cache summary (profiler/writers/summary/l2_cache.h) computes the same two
// ratios from the task's L2 counters: hits and miss-allocates (requests = hits + misses) and the
// lines written back to HBM (victims). The record carries those three sums through the events.
// Assumed (no public source names what each event counts, only how the formula groups them): where a
// group has two events the first is the reads and the second the writes; the victim count is whole
// lines (the write-back bytes ÷ the L2 line, which the memory model writes back a line at a time).
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/prof_raw/raw_device_layouts.h"

namespace ascendsim {

// sample.json's l2CacheTaskProfilingEvents for the chip ("0xfb,0xfc,0x90,0x91,0x9c" on the 910B).
std::string l2CacheProfilingEvents(const ChipConfig& chip);

// The records of the run's AI Core, AI Vector and MIX kernels, by start; empty without ACL_PROF_L2CACHE.
std::string rawL2CacheRecords(const RunRecord& run, const ProfilerConfig& config);

// Puts a record's counts back into the task's L2 counters (hits, miss-allocates, HBM write-back),
// on the core side of its task type, so that l2CacheRates gives what the collection computed.
// False (nothing changed) when the record counts more hits than requests.
bool applyRawL2Cache(const RawL2Cache& record, const ChipConfig& chip, TaskResult& task);

}  // namespace ascendsim
