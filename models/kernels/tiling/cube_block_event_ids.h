#pragma once
// The event ids of the cube block program's buffers (cube_tiling.cpp and its UB output path,
// cube_block_output_ub.cpp): one table, because buffers on the same pipe pair must not share an id
// and those buffers live in both files.
#include <cstdint>

namespace ascendsim {

// Event ids: data slots use 0/1, the bias staging and bias table use 2, a resident A's "free"
// flag 3, A's own L1 slots 4/5, a fused epilogue operand's UB slots 4/5 (distinct pipe pairs share ids freely; ids 6/7 are left to the
// framework, hardware.md §2.4).
inline constexpr std::uint8_t kSlotEvents = 0;
inline constexpr std::uint8_t kBiasEvent = 2;
inline constexpr std::uint8_t kResidentAEvent = 3;
inline constexpr std::uint8_t kOwnASlotEvents = 4;
// A fused epilogue operand's two UB slots (MTE2 → V, the bias's pair): ids 4/5, above the bias's.
inline constexpr std::uint8_t kEpilogueEvents = 4;

}  // namespace ascendsim
