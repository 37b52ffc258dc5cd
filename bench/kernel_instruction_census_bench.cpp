// Which kernels of a workload issue the most instructions, without simulating: lowers the workload
// as runSimulation does and runs every block's program generator of every kernel once (one step),
// counting instructions per op type and opcode, and vector instructions by repeat count. The
// instruction count per step is what the device model has to execute, so this names the kernels
// to make leaner first (docs/performance.md).
// Usage: kernel_instruction_census_bench [workload.yaml] [key=value ...] [dump=OP_NAME]
// dump=OP_NAME also prints the first 300 instructions of block 0 of that op's kernels.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <systemc>  // declares sc_main extern "C"

#include "sim/config/chip_config_loader.h"
#include "sim/engine/device/lowered_workload.h"
#include "sim/workload/workload.h"

namespace ascendsim {
namespace {

constexpr std::size_t kOpcodeCount = static_cast<std::size_t>(Opcode::CrossCoreWait) + 1;
constexpr std::array<const char*, kOpcodeCount> kOpcodeNames{"move", "img2col", "mmad",    "vector",   "scalar",
                                                             "set",  "wait",    "barrier", "ccSet", "ccWait"};

struct Census {
    std::uint64_t launches = 0;
    std::uint64_t blocks = 0;
    std::array<std::uint64_t, kOpcodeCount> byOpcode{};
    std::uint64_t vectorRepeats = 0;
    std::uint64_t vectorSingleRepeat = 0;  // vector instructions with repeats == 1
    std::uint64_t gmBytes = 0;             // bytes moved to or from GM (each one an L2 lookup)

    std::uint64_t total() const {
        std::uint64_t sum = 0;
        for (const std::uint64_t n : byOpcode) sum += n;
        return sum;
    }
    void add(const Instruction& instruction) {
        ++byOpcode[static_cast<std::size_t>(instruction.opcode)];
        if (const auto* v = std::get_if<VectorInstr>(&instruction.operands)) {
            vectorRepeats += v->repeats;
            vectorSingleRepeat += v->repeats == 1 ? 1 : 0;
        }
        if (const auto* m = std::get_if<DataMove>(&instruction.operands); m && (m->src == MemSpace::GM || m->dst == MemSpace::GM))
            gmBytes += m->totalBytes();
    }
};

void printInstruction(const Instruction& instruction) {
    std::printf("  %-7s %-8s", pipeName(instruction.pipe).data(), kOpcodeNames[static_cast<std::size_t>(instruction.opcode)]);
    if (const auto* m = std::get_if<DataMove>(&instruction.operands))
        std::printf(" %s->%s %u x %u B", memSpaceName(m->src).data(), memSpaceName(m->dst).data(), m->burstCount,
                    m->burstBytes);
    if (const auto* v = std::get_if<VectorInstr>(&instruction.operands))
        std::printf(" %s repeats %u mask %u", vectorOpName(v->op), v->repeats, v->mask);
    if (const auto* f = std::get_if<Flag>(&instruction.operands))
        std::printf(" %s->%s event %u", pipeName(f->src).data(), pipeName(f->dst).data(), f->eventId);
    if (const auto* mm = std::get_if<Mmad>(&instruction.operands)) std::printf(" m %u k %u n %u", mm->m, mm->k, mm->n);
    if (const auto* w = std::get_if<ScalarWork>(&instruction.operands)) std::printf(" %u cycles", w->cycles);
    std::printf("\n");
}

void dumpBlock(const LoweredKernel& kernel, const BlockProgramRequest& request, std::size_t limit) {
    const std::unique_ptr<InstructionStream> stream = kernel.program(request);
    std::vector<Instruction> program;
    while (program.size() < limit && stream->next(program)) {
    }
    for (std::size_t i = 0; i < std::min(limit, program.size()); ++i) printInstruction(program[i]);
}

void countBlock(const LoweredKernel& kernel, const BlockProgramRequest& request, Census& census) {
    const std::unique_ptr<InstructionStream> stream = kernel.program(request);
    std::vector<Instruction> chunk;
    while (stream->next(chunk)) {
        for (const Instruction& instruction : chunk) census.add(instruction);
        chunk.clear();
    }
    ++census.blocks;
}

void countKernel(const LoweredKernel& kernel, const ChipConfig& chip, std::uint64_t workspaceAddr, Census& census) {
    if (!kernel.program) return;  // AI CPU
    ++census.launches;
    const bool mix = kernel.type == TaskType::MixAic || kernel.type == TaskType::MixAiv;
    const bool split = chip.organisation == CoreOrganisation::Split;
    const CoreKind kind = kernel.type == TaskType::AiVectorCore ? CoreKind::Vector
                          : split                               ? CoreKind::Cube
                                                                : CoreKind::Coupled;
    for (std::uint32_t block = 0; block < kernel.blockDim; ++block) {
        countBlock(kernel, {block, mix ? CoreKind::Cube : kind, 0, workspaceAddr}, census);
        if (!mix) continue;
        for (std::uint32_t sub = 0; sub < chip.vectorCoresPerCube; ++sub)
            countBlock(kernel, {block, CoreKind::Vector, sub, workspaceAddr}, census);
    }
}

int run(const std::string& workloadPath, std::vector<std::string> overrides) {
    std::string dumpOp;
    for (auto it = overrides.begin(); it != overrides.end();) {
        if (!it->starts_with("dump=")) {
            ++it;
            continue;
        }
        dumpOp = it->substr(5);
        it = overrides.erase(it);
    }
    const Workload workload = loadWorkload(workloadPath, WorkloadOverrides{overrides});
    const ChipConfig chip = loadChipByName(workload.chip.value_or("Ascend910B1"), defaultConfigDir(), {});
    const LoweredWorkload lowered(workload, chip);
    std::map<std::string, Census> byType;
    Census all;
    std::chrono::steady_clock::duration generating{};  // the `all` pass only: each program generated once
    for (const LoweredOp& op : lowered.ops()) {
        for (const LoweredKernel& kernel : op.kernels) {
            const std::string key = reportedOpTypeOf(kernel, op.instance.type) +
                                    (kernel.kernelSuffix.empty() ? "" : "/" + kernel.kernelSuffix);
            const std::uint64_t workspace = kernel.workspaceBytes > 0 ? lowered.workspaceAddress() : 0;
            countKernel(kernel, chip, workspace, byType[key]);
            const auto start = std::chrono::steady_clock::now();
            countKernel(kernel, chip, workspace, all);
            generating += std::chrono::steady_clock::now() - start;
            if (op.instance.name != dumpOp || !kernel.program) continue;
            const CoreKind kind = kernel.type == TaskType::AiVectorCore ? CoreKind::Vector : CoreKind::Cube;
            std::printf("%s (%s), block 0:\n", op.instance.name.c_str(), key.c_str());
            dumpBlock(kernel, {0, kind, 0, workspace}, 300);
        }
    }
    std::vector<std::pair<std::string, Census>> rows(byType.begin(), byType.end());
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.total() > b.second.total(); });
    rows.emplace_back("TOTAL (one step)", all);
    std::printf("%-28s %8s %7s %10s %6s", "op type", "launches", "blocks", "instr", "%");
    for (const char* name : kOpcodeNames) std::printf(" %8s", name);
    std::printf(" %9s %8s %8s\n", "vec reps", "vec rep1", "GM MiB");
    for (const auto& [name, c] : rows) {
        std::printf("%-28s %8llu %7llu %10llu %6.2f", name.c_str(), static_cast<unsigned long long>(c.launches),
                    static_cast<unsigned long long>(c.blocks), static_cast<unsigned long long>(c.total()),
                    100.0 * static_cast<double>(c.total()) / static_cast<double>(std::max<std::uint64_t>(all.total(), 1)));
        for (const std::uint64_t n : c.byOpcode) std::printf(" %8llu", static_cast<unsigned long long>(n));
        std::printf(" %9llu %8llu %8.1f\n", static_cast<unsigned long long>(c.vectorRepeats),
                    static_cast<unsigned long long>(c.vectorSingleRepeat), static_cast<double>(c.gmBytes) / (1 << 20));
    }
    // The speed target of program generation (a bench figure, not a unit test: timed tests flake
    // under load): under a microsecond per instruction in a Release build.
    const double seconds = std::chrono::duration<double>(generating).count();
    std::printf("\nprogram generation: %llu instructions in %.3f s = %.0f ns per instruction (target < 1000 ns)\n",
                static_cast<unsigned long long>(all.total()), seconds,
                1e9 * seconds / static_cast<double>(std::max<std::uint64_t>(all.total(), 1)));
    return 0;
}

}  // namespace
}  // namespace ascendsim

int sc_main(int argc, char* argv[]) {
    const std::string workload =
        argc > 1 ? argv[1] : std::string(ASCENDSIM_BENCH_SOURCE_DIR) + "/workloads/resnet50.yaml";
    std::vector<std::string> overrides(argv + std::min(argc, 2), argv + argc);
    try {
        return ascendsim::run(workload, overrides);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kernel_instruction_census_bench: %s\n", e.what());
        return 1;
    }
}
