#pragma once
// Checks that a block's flags really order its pipes' accesses to local buffers (hardware.md
// §2.2, §2.4): pipes run in parallel, so an access must happen-after every conflicting earlier
// access of another pipe through a SetFlag/WaitFlag chain, a PIPE_ALL barrier or the scalar
// unit's in-order issue. Happens-before is tracked with one vector clock per pipe; buffers keep,
// per 32-byte granule, the last writer and the last reader of every pipe. A read-after-write,
// write-after-read or write-after-write between unordered pipes throws std::runtime_error.
#include <array>
#include <cstdint>
#include <vector>

#include "models/isa/instruction.h"

namespace ascendsim {

class HazardTracker {
public:
    HazardTracker();

    // Advances the clocks for `instruction` (on its pipe) and checks/records its accesses.
    void execute(const Instruction& instruction);

private:
    using Clock = std::array<std::uint64_t, kPipeCount>;
    struct Granule {
        std::uint8_t writer = 0xFF;  // pipe index, 0xFF = never written
        std::uint64_t writeTime = 0;
        std::array<std::uint64_t, kPipeCount> readTime{};  // 0 = not read since the write
    };

    void access(MemSpace space, std::uint64_t addr, std::uint64_t bytes, bool write, std::size_t pipe,
                const Instruction& instruction);
    void accessVector(const VectorInstr& v, std::size_t pipe, const Instruction& instruction);

    std::array<Clock, kPipeCount> clocks_{};
    std::vector<Clock> flagClocks_;  // [src][dst][event]
    std::array<std::vector<Granule>, kMemSpaceCount> shadow_;
};

}  // namespace ascendsim
