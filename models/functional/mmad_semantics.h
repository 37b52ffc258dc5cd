#pragma once
// The effect of one Mmad on a core's memories (instruction.h): L0C[m×n] (+)= L0A·L0B with fp32
// accumulation for float inputs (fp16/bf16 products are exact in fp32; hf32 rounds fp32 inputs to
// a 10-bit mantissa first) and exact int32 accumulation for int8. Dense row-major tiles.
#include "models/functional/core_memory.h"
#include "models/isa/instruction.h"

namespace ascendsim {

void executeMmad(const Mmad& mmad, CoreMemory& memory);

// hf32 input rounding: fp32 with the mantissa rounded to nearest-even at 10 bits. [I] the exact
// hf32 mantissa width is not in the spec; TF32's 10 bits are assumed.
float roundToHf32(float value);

}  // namespace ascendsim
