#include "models/kernels/attention/attention_cube_steps.h"

namespace ascendsim {

namespace {
constexpr std::uint64_t kL0SlotBytes = 32 * 1024;   // 128 × 128 fp16/bf16: half of L0A/L0B (hardware.md §2.2)
constexpr std::uint64_t kL0cSlotBytes = 64 * 1024;  // 128 × 128 fp32: half of L0C
}  // namespace

AttentionCubeSteps::AttentionCubeSteps()
    : l0_(0, kL0SlotBytes, Pipe::Mte1, Pipe::Cube, 0), l0c_(0, kL0cSlotBytes, Pipe::Cube, Pipe::FixPipe, 0) {}

void AttentionCubeSteps::prime(ProgramBuilder& b) const {
    l0_.prime(b);
    l0c_.prime(b);
}

void AttentionCubeSteps::drain(ProgramBuilder& b) const {
    l0_.drain(b);
    l0c_.drain(b);
}

void AttentionCubeSteps::gemm(ProgramBuilder& b, Mmad mmad, std::uint64_t aL1, std::uint64_t aBytes, std::uint64_t bL1,
                              std::uint64_t bBytes) {
    l0_.acquire(b);
    mmad.l0aAddr = l0_.address();
    mmad.l0bAddr = l0_.address();
    b.copy(MemSpace::L1, aL1, MemSpace::L0A, mmad.l0aAddr, static_cast<std::uint32_t>(aBytes));
    b.copy(MemSpace::L1, bL1, MemSpace::L0B, mmad.l0bAddr, static_cast<std::uint32_t>(bBytes));
    l0_.publish(b);
    l0_.consume(b);
    l0c_.acquire(b);
    mmad.l0cAddr = l0c_.address();
    mmad.initialize = true;
    b.mmad(mmad);
    l0_.release(b);
    l0c_.publish(b);
    l0c_.consume(b);
}

void AttentionCubeSteps::store(ProgramBuilder& b, std::uint64_t gmAddr, std::uint32_t rows, std::uint32_t cols,
                               bool atomicAdd) {
    DataMove m;
    m.src = MemSpace::L0C;
    m.dst = MemSpace::GM;
    m.srcAddr = l0c_.address();
    m.dstAddr = gmAddr;
    m.burstBytes = rows * cols * 4;
    m.srcType = m.dstType = DataType::Fp32;
    m.conversion = LayoutConversion::Nz2Nd;
    m.atomicAdd = atomicAdd;
    b.move(m);
    l0c_.release(b);
}

}  // namespace ascendsim
