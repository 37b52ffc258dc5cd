#pragma once
// Execution pipes of a DaVinci AI Core (hardware.md §2.2) and the memories they move data between.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ascendsim {

enum class Pipe : std::uint8_t { Scalar, Vector, Cube, Mte1, Mte2, Mte3, FixPipe, All };
inline constexpr std::size_t kPipeCount = 7;  // Pipe::All is not a real pipe

constexpr std::size_t pipeIndex(Pipe p) { return static_cast<std::size_t>(p); }
std::string_view pipeName(Pipe p);  // "PIPE_S", "PIPE_V", ... as Ascend C spells them

enum class MemSpace : std::uint8_t { GM, L1, L0A, L0B, L0C, UB, BiasTable, FixpipeBuffer };
inline constexpr std::size_t kMemSpaceCount = 8;

std::string_view memSpaceName(MemSpace m);
// "GM->L1": a data path as messages, reports and traces name it.
std::string pathName(MemSpace src, MemSpace dst);

// The pipe that executes a data move from `src` to `dst` (hardware.md §1.3 "Pipe attribution",
// §2.3). Returns Pipe::All for a path the architecture does not have.
Pipe pipeForPath(MemSpace src, MemSpace dst);

// Core organisation of a chip (hardware.md §2.1).
enum class CoreKind : std::uint8_t { Cube /*AIC*/, Vector /*AIV*/, Coupled /*910A/310P AI core*/ };

}  // namespace ascendsim
