#pragma once
// Helpers for the tests of the cube block program's parts (cube_block_*_test.cpp), which drive a
// part directly and read the instructions it emits.
#include <gtest/gtest.h>

#include <vector>

#include "models/isa/instruction.h"

namespace ascendsim::test {

// Every flag wait of `program` follows a set of the same (src pipe, dst pipe, event id) not yet
// waited for, and no set is left unwaited at the end: the program's flags pair up as a block's
// prime / acquire / publish / consume / release / drain must.
inline void expectCubeBlockFlagsBalanced(const std::vector<Instruction>& program) {
    std::vector<int> balance(8 * 8 * 8, 0);  // per (src pipe, dst pipe, event id): sets minus waits
    for (const auto& instruction : program) {
        if (instruction.opcode != Opcode::SetFlag && instruction.opcode != Opcode::WaitFlag) continue;
        const Flag& flag = std::get<Flag>(instruction.operands);
        int& count = balance[pipeIndex(flag.src) * 64 + pipeIndex(flag.dst) * 8 + flag.eventId % 8u];
        if (instruction.opcode == Opcode::SetFlag) {
            ++count;
        } else {
            ASSERT_GT(count, 0) << "a wait without a set before it";
            --count;
        }
    }
    for (int count : balance) EXPECT_EQ(count, 0);
}

}  // namespace ascendsim::test
