// The GM zero-fill kernel that precedes atomic accumulation (conv2d_backprop_filter_operands.h).
#include <algorithm>

#include "models/kernels/cube/conv/conv2d_backprop_filter_operands.h"

namespace ascendsim {

namespace {
constexpr std::uint64_t kZeroBufferBytes = 32 * 1024;  // UB staging of zeros, well inside 192 KiB
constexpr std::uint64_t kRepeatBytes = 256;             // one vector repeat (hardware.md §2.6)
constexpr std::uint64_t kGmShareAlignBytes = 512;       // block shares on cache-line-friendly bounds

class ZeroFillStream final : public InstructionStream {
public:
    ZeroFillStream(std::uint64_t addr, std::uint64_t bytes) : addr_(addr), bytes_(bytes) {}

    bool next(std::vector<Instruction>& out) override {
        if (done_) return false;
        done_ = true;
        ProgramBuilder b(out);
        b.scalar(16, 2);
        if (bytes_ == 0) return true;
        const std::uint64_t fill = std::min(kZeroBufferBytes, roundUp(bytes_, kRepeatBytes));
        VectorInstr dup;
        dup.op = VectorOp::Duplicate;
        dup.dtype = DataType::Fp32;
        dup.repeats = static_cast<std::uint16_t>(fill / kRepeatBytes);
        dup.mask = static_cast<std::uint16_t>(kRepeatBytes / 4);
        dup.scalar = 0.0f;
        b.vector(dup);
        b.handoff(Pipe::Vector, Pipe::Mte3, 0);
        for (std::uint64_t offset = 0; offset < bytes_; offset += fill)
            b.copy(MemSpace::UB, 0, MemSpace::GM, addr_ + offset,
                   static_cast<std::uint32_t>(std::min(fill, bytes_ - offset)));
        return true;
    }

private:
    std::uint64_t addr_, bytes_;
    bool done_ = false;
};
}  // namespace

LoweredKernel makeGmZeroFillKernel(const ChipConfig& chip, std::uint64_t addr, std::uint64_t bytes) {
    const bool coupled = chip.organisation == CoreOrganisation::Coupled;
    const std::uint64_t cores = std::max<std::uint32_t>(1, coupled ? chip.aiCoreCount : chip.vectorCoreCount);
    const std::uint64_t share = roundUp(ceilDiv(bytes, cores), kGmShareAlignBytes);
    LoweredKernel kernel;
    kernel.kernelSuffix = "AtomicAddrClean";
    // The chip runs and reports the clean as a MemSet task of its own, ahead of the kernel
    // (e5a31957 Conv2DBackpropFilter6_MemSet, c1e639ee atomic_memset-1_749_0, both Type MemSet
    // beside their dw rows): a replay measures the dw kernel without it (docs/fidelity.md §136).
    kernel.reportedOpType = "MemSet";
    kernel.type = coupled ? TaskType::AiCore : TaskType::AiVectorCore;
    kernel.blockDim = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, ceilDiv(bytes, share)));
    kernel.program = [addr, bytes, share](const BlockProgramRequest& request) -> std::unique_ptr<InstructionStream> {
        const std::uint64_t begin = std::min(bytes, request.blockIdx * share);
        const std::uint64_t end = std::min(bytes, begin + share);
        return std::make_unique<ZeroFillStream>(addr + begin, end - begin);
    };
    return kernel;
}

}  // namespace ascendsim
