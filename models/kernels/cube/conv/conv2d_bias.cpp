#include "models/kernels/cube/conv/conv2d_bias.h"

#include <algorithm>
#include <memory>

#include "models/kernels/tiling/cube_tiling.h"

namespace ascendsim {

namespace {
constexpr std::uint64_t kBlockBytes = 32;     // UB block (hardware.md §2.3)
constexpr std::uint64_t kRepeatBytes = 256;   // vector repeat (hardware.md §2.6)
constexpr std::uint64_t kMaxRepeats = 255;
constexpr std::uint64_t kChunkBytes = 32 * 1024;  // one y chunk per UB slot
// UB layout: [gather offsets, up to 16 int32][expanded bias block 32 B][bias vector][2 y slots].
constexpr std::uint64_t kTableAddr = 0, kExpandedAddr = 64, kBiasAddr = 128;

class ConvBiasStream final : public TiledInstructionStream {
public:
    ConvBiasStream(ConvBiasProblem p, std::uint64_t firstPlane, std::uint64_t planes)
        : p_(p), first_(firstPlane), planes_(planes),
          slots_(roundUp(kBiasAddr + p.channels * bytesOf(p.dtype), kRepeatBytes), kChunkBytes, Pipe::Mte2, Pipe::Mte3, 0) {}

protected:
    std::uint64_t tileCount() const override { return planes_; }
    void emitPrologue(ProgramBuilder& b) override {
        b.scalar(32, 4);
        if (planes_ == 0) return;
        b.copy(MemSpace::GM, p_.biasAddr, MemSpace::UB, kBiasAddr, static_cast<std::uint32_t>(p_.channels * bytesOf(p_.dtype)));
        b.handoff(Pipe::Mte2, Pipe::Vector, 2);
        slots_.prime(b);
    }
    void emitEpilogue(ProgramBuilder& b) override {
        if (planes_ > 0) slots_.drain(b);
    }
    void emitTile(std::uint64_t local, ProgramBuilder& b) override {
        const std::uint64_t plane = first_ + local, channel = plane % p_.channels;
        const std::uint64_t eb = bytesOf(p_.dtype), perBlock = kBlockBytes / eb, perRepeat = kRepeatBytes / eb;
        b.scalar(8);
        // Broadcast bias[channel] into one block: a Gather whose offsets all point at it.
        VectorInstr offsets;
        offsets.op = VectorOp::Duplicate;
        offsets.dtype = offsets.srcType = DataType::Int32;
        offsets.dst = kTableAddr;
        offsets.mask = static_cast<std::uint16_t>(perBlock);  // one int32 offset per element of the block
        offsets.scalar = static_cast<float>(channel * eb);
        b.vector(offsets);
        VectorInstr gather;
        gather.op = VectorOp::Gather;
        gather.dtype = gather.srcType = p_.dtype;
        gather.dst = kExpandedAddr;
        gather.src0 = kBiasAddr;
        gather.src1 = kTableAddr;
        gather.mask = static_cast<std::uint16_t>(perBlock);
        b.vector(gather);
        const std::uint64_t planeBytes = p_.planeElements * eb;
        for (std::uint64_t offset = 0; offset < planeBytes; offset += kChunkBytes) {
            const std::uint64_t bytes = std::min(kChunkBytes, planeBytes - offset), elements = bytes / eb;
            const std::uint64_t gm = p_.yAddr + plane * planeBytes + offset;
            slots_.acquire(b);
            b.copy(MemSpace::GM, gm, MemSpace::UB, slots_.address(), static_cast<std::uint32_t>(bytes));
            b.handoff(Pipe::Mte2, Pipe::Vector, slots_.eventId());
            for (std::uint64_t done = 0; done < elements;) {
                VectorInstr add;
                add.op = VectorOp::Add;
                add.dtype = add.srcType = p_.dtype;
                add.dst = add.src0 = slots_.address() + done * eb;
                add.src1 = kExpandedAddr;
                add.src1BlockStride = 0;
                add.src1RepeatStride = 0;
                const std::uint64_t left = elements - done;
                add.repeats = static_cast<std::uint16_t>(left >= perRepeat ? std::min(left / perRepeat, kMaxRepeats) : 1);
                add.mask = static_cast<std::uint16_t>(left >= perRepeat ? perRepeat : left);
                done += left >= perRepeat ? add.repeats * perRepeat : left;
                b.vector(add);
            }
            b.handoff(Pipe::Vector, Pipe::Mte3, slots_.eventId());
            b.copy(MemSpace::UB, slots_.address(), MemSpace::GM, gm, static_cast<std::uint32_t>(bytes));
            slots_.release(b);
        }
    }

private:
    ConvBiasProblem p_;
    std::uint64_t first_, planes_;
    PingPongBuffer slots_;
};
}  // namespace

LoweredKernel makeConvBiasKernel(const OpInstance& op, const ChipConfig& chip, const ConvBiasProblem& p) {
    if (p.dtype != DataType::Fp16 && p.dtype != DataType::Fp32 && p.dtype != DataType::Bf16)
        throwLoweringError(op, "bias add needs a float output dtype");
    const std::uint64_t ubNeeded = roundUp(kBiasAddr + p.channels * bytesOf(p.dtype), kRepeatBytes) + 2 * kChunkBytes;
    if (ubNeeded > chip.bufferCapacity(MemSpace::UB)) throwLoweringError(op, "bias vector does not fit UB");
    const bool coupled = chip.organisation == CoreOrganisation::Coupled;
    const std::uint32_t cores = std::max<std::uint32_t>(1, coupled ? chip.aiCoreCount : chip.vectorCoreCount);
    LoweredKernel kernel;
    kernel.kernelSuffix = "BiasAdd";
    kernel.type = coupled ? TaskType::AiCore : TaskType::AiVectorCore;
    kernel.blockDim = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(cores, p.planes)));
    const std::uint32_t blockDim = kernel.blockDim;
    kernel.program = [p, blockDim](const BlockProgramRequest& r) -> std::unique_ptr<InstructionStream> {
        std::uint64_t first = 0, count = 0;
        blockTileRange(p.planes, blockDim, r.blockIdx, first, count);
        return std::make_unique<ConvBiasStream>(p, first, count);
    };
    return kernel;
}

}  // namespace ascendsim
