#pragma once
// The HBM traffic of the HCCL collectives a real kernel ran beside (docs/fidelity.md §108).
//
// A collective's bytes move through the same HBM as the compute stream's: HCCL's SDMA engines
// read the source and write the destination in HBM (Memcpy), and an inline reduction
// (Reduce_Inline) also reads the destination it adds into. Only the transfer tasks count: the
// Notify_Record / Notify_Wait rows are the op synchronising with its peers (a gradient all-reduce
// spends most of its span waiting for the slowest rank) and move nothing.
//
// HBM bytes this chip sees per byte a task row reports:
// - ON_CHIP Memcpy 2 (read the source, write the destination, both local);
// - ON_CHIP Reduce_Inline 3 (read the source, read and write the destination);
// - a task over a peer link (HCCS, PCIE, ROCE, SIO) moves its bytes in or out of this chip once,
//   and the peer's mirror task does the other direction at the same time (HCCL's mesh and ring
//   algorithms are symmetric: every rank runs the same phase on every plane, the trace's planes
//   1..7 start within 2 µs of each other): 2 per byte, and 3 for Reduce_Inline (the reduction
//   reads the destination before writing it).
// The rate is the task's bytes over its measured time: what it got of HBM beside the real kernel,
// which the replay then takes away from the simulated one (concurrent_hbm_traffic.h).
#include <string>
#include <vector>

#include "models/memory/concurrent_hbm_traffic.h"
#include "sim/replay/input/real_profile.h"

namespace ascendsim {

// HBM bytes on this chip per transferred byte of `transfer` (above).
double hbmBytesPerTransferredByte(const HcclTransfer& transfer);

// The windows of the transfers that overlap `kernel`'s real span [start, start + duration), as
// ConcurrentHbmWindow relative to the kernel's start (ps; a window may start before 0 and end
// after the kernel did — the collective does not stop with it). Empty when the kernel has no start
// time or nothing overlaps it. Transfers of zero duration or zero bytes are skipped.
std::vector<ConcurrentHbmWindow> concurrentHbmWindows(const RealKernel& kernel, const std::vector<HcclTransfer>& transfers);

// The share of the kernel's real span some transfer covered (0..1; for the report and §108).
double transferOverlapShare(const RealKernel& kernel, const std::vector<HcclTransfer>& transfers);

// A short text of the windows, for a replay group's identity ("" when none).
std::string concurrentTrafficText(const std::vector<ConcurrentHbmWindow>& windows);

}  // namespace ascendsim
