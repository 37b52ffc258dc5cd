#include "models/kernels/pooling/tik_scalar_work.h"

#include <variant>

namespace ascendsim {

void addTikScalarWork(std::vector<Instruction>& code) {
    std::vector<Instruction> out;
    out.reserve(2 * code.size());
    for (const Instruction& i : code) {
        const auto* move = std::get_if<DataMove>(&i.operands);
        const bool vectorPipe = i.opcode == Opcode::Vector || (move != nullptr && move->src == MemSpace::UB && move->dst == MemSpace::UB);
        if (vectorPipe) out.push_back(Instruction::scalar(kTikScalarCyclesPerInstruction));
        out.push_back(i);
    }
    code = std::move(out);
}

}  // namespace ascendsim
