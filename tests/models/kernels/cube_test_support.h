#pragma once
// Helpers for cube kernel tests: GM allocation, random tensors, running every kernel of a lowered
// op on the FunctionalMachine, and comparisons against naive references.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "models/functional/functional_machine.h"
#include "models/kernels/cube/matmul/matmul_operands.h"
#include "models/kernels/kernel_registry.h"
#include "models/kernels/op_instance.h"

namespace ascendsim::test {

class CubeOpHarness {
public:
    explicit CubeOpHarness(const ChipConfig& chip, std::uint64_t gmBytes = 64ull << 20)
        : chip_(chip), machine_(chip, gmBytes) {
        machine_.setHazardChecking(true);  // cube programs must order every cross-pipe access
    }
    // The harness keeps a reference to its chip: `CubeOpHarness h(ascend910B1())` would dangle.
    explicit CubeOpHarness(const ChipConfig&& chip, std::uint64_t gmBytes = 64ull << 20) = delete;

    TensorInfo tensor(const std::string& name, std::vector<std::int64_t> shape, DataType dtype) {
        TensorInfo t;
        t.name = name;
        t.shape = std::move(shape);
        t.dtype = dtype;
        t.deviceAddr = next_;
        next_ += (t.bytes() + 511) / 512 * 512 + 512;
        return t;
    }

    // Writes random values in [lo, hi] (integers for int types) and returns what GM holds after
    // rounding to the dtype.
    std::vector<float> fillRandom(const TensorInfo& t, float lo = -1.0f, float hi = 1.0f) {
        std::vector<float> values(static_cast<std::size_t>(t.elementCount()));
        std::uniform_real_distribution<float> real(lo, hi);
        std::uniform_int_distribution<int> integer(static_cast<int>(lo), static_cast<int>(hi));
        for (auto& v : values) v = isFloat(t.dtype) ? real(rng_) : static_cast<float>(integer(rng_));
        machine_.writeTensor(t.deviceAddr, t.dtype, values);
        return read(t);
    }
    void fill(const TensorInfo& t, float value) {
        machine_.writeTensor(t.deviceAddr, t.dtype, std::vector<float>(static_cast<std::size_t>(t.elementCount()), value));
    }
    std::vector<float> read(const TensorInfo& t) const {
        return machine_.readTensor(t.deviceAddr, t.dtype, static_cast<std::size_t>(t.elementCount()));
    }

    std::vector<LoweredKernel> lower(const OpInstance& op) const { return KernelRegistry::instance().lower(op, chip_); }

    // Lowers `op` and runs all its kernels; returns the kernels for inspection. Like the engine,
    // the kernels of one op share one workspace (a helper kernel leaves data there for the next).
    std::vector<LoweredKernel> run(const OpInstance& op) {
        auto kernels = lower(op);
        std::uint64_t workspaceBytes = 0;
        for (const auto& kernel : kernels) workspaceBytes = std::max(workspaceBytes, kernel.workspaceBytes);
        std::uint64_t workspaceAddr = 0;
        if (workspaceBytes) {
            // The host allocates workspace (poisoned: kernels must write before they read).
            workspaceAddr = lastWorkspace_ = next_;
            auto& gm = machine_.globalMemory();
            std::fill(gm.begin() + static_cast<std::ptrdiff_t>(next_),
                      gm.begin() + static_cast<std::ptrdiff_t>(next_ + workspaceBytes), 0xFF);
            next_ += (workspaceBytes + 511) / 512 * 512;
        }
        for (const auto& kernel : kernels) {
            KernelTask task = kernelTaskOf(kernel);
            task.workspaceAddr = kernel.workspaceBytes ? workspaceAddr : 0;
            machine_.runKernel(task);
        }
        return kernels;
    }

    FunctionalMachine& machine() { return machine_; }
    std::uint64_t lastWorkspaceAddr() const { return lastWorkspace_; }
    std::mt19937& rng() { return rng_; }

private:
    const ChipConfig& chip_;
    FunctionalMachine machine_;
    std::uint64_t next_ = 4096;
    std::uint64_t lastWorkspace_ = 0;
    std::mt19937 rng_{12345};
};

// Calls visit(instruction) for every instruction of one block program of `kind` (block `block`,
// the first by default), in program order.
template <typename Visit>
void forEachProgramInstruction(const LoweredKernel& kernel, CoreKind kind, Visit visit, std::uint32_t block = 0) {
    BlockProgramRequest request;
    request.blockIdx = block;
    request.coreKind = kind;
    auto stream = kernel.program(request);
    std::vector<Instruction> chunk;
    while (stream->next(chunk)) {
        for (const Instruction& i : chunk) visit(i);
        chunk.clear();
    }
}

// Calls visit(instruction) for every instruction of every block program of `kind` (blocks in order;
// `workspace` is the launch's GM workspace address).
template <typename Visit>
void forEachBlockInstruction(const LoweredKernel& kernel, CoreKind kind, Visit visit, std::uint64_t workspace = 0) {
    for (std::uint32_t block = 0; block < kernel.blockDim; ++block) {
        auto stream = kernel.program({block, kind, 0, workspace});
        std::vector<Instruction> chunk;
        while (stream->next(chunk)) {
            for (const Instruction& i : chunk) visit(i);
            chunk.clear();
        }
    }
}

// The cross-core flag events of one block program, in program order: +id for a set, −(id+1) for a wait.
inline std::vector<int> crossCoreEvents(const LoweredKernel& kernel, CoreKind kind) {
    std::vector<int> events;
    forEachProgramInstruction(kernel, kind, [&](const Instruction& i) {
        if (i.opcode == Opcode::CrossCoreSet) events.push_back(std::get<CrossCoreFlag>(i.operands).flagId);
        if (i.opcode == Opcode::CrossCoreWait) events.push_back(-1 - std::get<CrossCoreFlag>(i.operands).flagId);
    });
    return events;
}

// Whether each cross-core wait of one block program polls (CrossCoreFlag::polled), in program order.
inline std::vector<bool> crossCoreWaitsPolled(const LoweredKernel& kernel, CoreKind kind) {
    std::vector<bool> polled;
    forEachProgramInstruction(kernel, kind, [&](const Instruction& i) {
        if (i.opcode == Opcode::CrossCoreWait) polled.push_back(std::get<CrossCoreFlag>(i.operands).polled);
    });
    return polled;
}

// The layout conversions of the AIC's GM→L1 moves of one block program, in program order.
inline std::vector<LayoutConversion> gmToL1Conversions(const LoweredKernel& kernel) {
    std::vector<LayoutConversion> conversions;
    forEachProgramInstruction(kernel, CoreKind::Cube, [&](const Instruction& i) {
        if (i.opcode != Opcode::DataMove) return;
        const auto& m = std::get<DataMove>(i.operands);
        if (m.src == MemSpace::GM && m.dst == MemSpace::L1) conversions.push_back(m.conversion);
    });
    return conversions;
}

// Counts the instructions a block program yields, by opcode.
struct ProgramCounts {
    std::uint64_t total = 0, mmads = 0, moves = 0, img2cols = 0, vectors = 0, chunks = 0;
};
inline ProgramCounts countProgram(const LoweredKernel& kernel, const BlockProgramRequest& request) {
    ProgramCounts counts;
    auto stream = kernel.program(request);
    std::vector<Instruction> chunk;
    while (stream->next(chunk)) {
        ++counts.chunks;
        for (const auto& instruction : chunk) {
            ++counts.total;
            counts.mmads += instruction.opcode == Opcode::Mmad;
            counts.moves += instruction.opcode == Opcode::DataMove;
            counts.img2cols += instruction.opcode == Opcode::Img2Col;
            counts.vectors += instruction.opcode == Opcode::Vector;
        }
        chunk.clear();
    }
    return counts;
}

// The instructions of block `block`'s program, in issue order, on a core of `kind`.
inline std::vector<Instruction> blockProgram(const LoweredKernel& kernel, std::uint32_t block,
                                             CoreKind kind = CoreKind::Cube) {
    std::vector<Instruction> program;
    auto stream = kernel.program({block, kind, 0});
    while (stream->next(program)) {
    }
    return program;
}

// GM→L1 bytes that block `block`'s program reads from tensor `t` (moves whose GM source starts
// inside it): how often a cube kernel loads an operand.
inline std::uint64_t gmToL1BytesFrom(const LoweredKernel& kernel, std::uint32_t block, const TensorInfo& t) {
    std::uint64_t bytes = 0;
    auto stream = kernel.program({block, CoreKind::Cube, 0});
    std::vector<Instruction> chunk;
    while (stream->next(chunk)) {
        for (const auto& instruction : chunk) {
            const auto* move = std::get_if<DataMove>(&instruction.operands);
            if (!move || move->src != MemSpace::GM || move->dst != MemSpace::L1) continue;
            if (move->srcAddr >= t.deviceAddr && move->srcAddr < t.deviceAddr + t.bytes()) bytes += move->totalBytes();
        }
        chunk.clear();
    }
    return bytes;
}

inline void expectNear(const std::vector<float>& actual, const std::vector<double>& expected,
                       double absTolerance, double relTolerance, const std::string& what) {
    ASSERT_EQ(actual.size(), expected.size()) << what;
    std::size_t bad = 0;
    for (std::size_t i = 0; i < actual.size(); ++i) {
        const double tolerance = absTolerance + relTolerance * std::fabs(expected[i]);
        if (!(std::fabs(actual[i] - expected[i]) <= tolerance)) {
            if (bad++ < 5)
                ADD_FAILURE() << what << ": element " << i << " is " << actual[i] << ", expected "
                              << expected[i];
        }
    }
    EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << actual.size() << " elements differ";
}

// Reference products of `batches` edge × edge matrices in row-major order: A[n]·B[n], or A[n]·B
// with one B shared by every batch (`bShared`).
inline std::vector<double> batchedSquareProducts(const std::vector<float>& a, const std::vector<float>& b,
                                                 std::size_t batches, std::size_t edge, bool bShared) {
    std::vector<double> c(batches * edge * edge, 0.0);
    for (std::size_t n = 0; n < batches; ++n) {
        const std::size_t bBase = bShared ? 0 : n * edge * edge;
        for (std::size_t i = 0; i < edge; ++i)
            for (std::size_t j = 0; j < edge; ++j)
                for (std::size_t p = 0; p < edge; ++p)
                    c[(n * edge + i) * edge + j] += double(a[(n * edge + i) * edge + p]) * b[bBase + p * edge + j];
    }
    return c;
}

// Reference product x · wᵀ of a row-major x [m, k] and w [n, k] (a linear layer's forward).
inline std::vector<double> productWithTransposedB(const std::vector<float>& x,
                                                  const std::vector<float>& w, std::size_t m,
                                                  std::size_t n, std::size_t k) {
    std::vector<double> y(m * n, 0.0);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t p = 0; p < k; ++p) y[i * n + j] += double(x[i * k + p]) * w[j * k + p];
    return y;
}

// An ND tensor at a given GM address (for kernels whose GM traffic the test counts by address).
inline TensorInfo ndTensorAt(const std::string& name, std::vector<std::int64_t> shape, DataType dtype,
                             std::uint64_t addr) {
    return TensorInfo{name, std::move(shape), dtype, TensorFormat::ND, addr};
}

inline OpInstance makeOp(const std::string& type, std::vector<TensorInfo> inputs, std::vector<TensorInfo> outputs) {
    OpInstance op;
    op.name = "test." + type;
    op.type = type;
    op.inputs = std::move(inputs);
    op.outputs = std::move(outputs);
    return op;
}

// Block 0's L0C → GM stores and how they wait for the cube: on a plain event or on the mmad's unit
// flag (the split cores' FixPipe waits).
struct FixPipeStoreWaits {
    int stores = 0, plain = 0, unit = 0;
};
inline FixPipeStoreWaits fixPipeStoreWaitsOf(const LoweredKernel& kernel) {
    FixPipeStoreWaits w;
    for (const Instruction& i : blockProgram(kernel, 0)) {
        if (i.opcode == Opcode::DataMove && std::get<DataMove>(i.operands).src == MemSpace::L0C) ++w.stores;
        if (i.opcode != Opcode::WaitFlag) continue;
        const Flag& f = std::get<Flag>(i.operands);
        if (f.src == Pipe::Cube && f.dst == Pipe::FixPipe) ++(f.unitFlag ? w.unit : w.plain);
    }
    return w;
}

// y [m, n] = x [m, k] · w [n, k]ᵀ, a Linear layer's forward (a skinny GEMM when m is the batch), on
// `blocks` blocks (nullopt: the block dim the kernel picks).
inline OpInstance linearForwardOp(CubeOpHarness& h, DataType dtype, std::int64_t m, std::int64_t n, std::int64_t k,
                                  std::optional<std::uint32_t> blocks = 1) {
    auto op = makeOp("MatMul", {h.tensor("x", {m, k}, dtype), h.tensor("w", {n, k}, dtype)},
                     {h.tensor("y", {m, n}, dtype)});
    op.attrs["transpose_b"] = true;
    op.blockDim = blocks;
    return op;
}

// A true-fp32 GEMM problem of m × n × k (B stored [n, k] when `transposeB`), for the MatMul planner's
// rules.
inline MatmulProblem fp32MatmulProblem(std::uint64_t m, std::uint64_t n, std::uint64_t k, bool transposeB) {
    MatmulProblem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.transposeB = transposeB;
    p.inputType = p.mmadType = p.accType = p.outputType = DataType::Fp32;
    return p;
}

// A MatMul op that carries only a launch's block dim (nullopt: the chip's cores), for the same rules.
inline OpInstance matmulWithBlockDim(std::optional<std::uint32_t> blockDim) {
    OpInstance op;
    op.type = "MatMul";
    op.blockDim = blockDim;
    return op;
}

}  // namespace ascendsim::test
