#pragma once
// What a workload may ask of the host and of the model's integer arithmetic: expanded op and
// tensor counts, tensor byte sizes, view chains. Checked while loading, so a workload that would
// exhaust memory or overflow a size fails up front with the size it would need
// (docs/reliability.md).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/isa/data_type.h"

namespace ascendsim {

struct Workload;

// assumed: the largest shipped workloads expand to a few thousand ops (resnet50_train_dp), a
// 96-layer LLM step to about 5,000; 100,000 ops take about 200 MB of host memory in the loader
// (kHostBytesPerOp) and hours to simulate, so more is a mistake.
constexpr std::uint64_t kMaxExpandedOps = 100'000;
constexpr std::uint64_t kMaxExpandedTensors = 4 * kMaxExpandedOps;
// Measured: host bytes one expanded op (with its output tensor) holds in the loader: a
// 271,111-op workload peaked at 1,906,568 KB, of which 1,405,640 KB were yaml-cpp's nodes
// (docs/reliability.md, "Resource honesty").
constexpr std::uint64_t kHostBytesPerOp = 2048;
// Measured: yaml-cpp 0.7 holds 1,405,640 KB of nodes for a 20,000,082-byte workload of 271,111
// flow-style ops (72 bytes per byte of file; docs/reliability.md, "Resource honesty").
constexpr std::uint64_t kYamlHostBytesPerFileByte = 72;
// assumed: 128x the largest shipped workload (32 KB); read, it takes about 300 MB of host memory.
constexpr std::uint64_t kMaxWorkloadFileBytes = std::uint64_t{4} << 20;
// assumed: 2^50 bytes (1 PiB) is far above any chip's device memory (hardware.md: 64 GB HBM at
// most), yet small enough that the sum of every tensor of a legal workload fits in 64 bits.
constexpr std::uint64_t kMaxTensorBytes = std::uint64_t{1} << 50;

// shape's element count times the dtype's size, or nullopt when it does not fit 64 bits.
std::optional<std::uint64_t> checkedByteSize(const std::vector<std::int64_t>& shape,
                                             DataType dtype);
// "12.5 MiB", "3.00 GiB": a byte count as messages show it.
std::string byteText(std::uint64_t bytes);

// Every tensor within kMaxTensorBytes, their sum within 2^62, no view chain that loops.
// Throws WorkloadError naming the tensor.
void checkWorkloadLimits(const Workload& workload);
// Throws WorkloadError naming the first tensor whose view_of chain comes back to itself.
void checkViewChains(const Workload& workload);

}  // namespace ascendsim
