#pragma once
// The tensors of a real kernel row as the simulator's catalog wants them: shape cells split on
// ';' ("4096,1024;" is a [4096,1024] tensor and a scalar), CANN dtype names ("DT_BF16", "FLOAT")
// and formats ("FORMAT_ND", "NC1HWC0:1") parsed, and the private layouts turned back into logical
// shapes: NC1HWC0 [N,C1,H,W,C0] → NCHW [N, C1·C0, H, W]; FRACTAL_NZ [.., N1, M1, 16, 16] →
// [.., M1·16, N1·16]. Padded extents stay padded (C1·C0, M1·16): that is what the hardware moves.
// FRACTAL_Z weights need the kernel size, which only the op knows (replay_op_rules_cube.cpp).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/kernels/op_instance.h"
#include "sim/replay/input/real_profile.h"

namespace ascendsim {

// A kernel the replay cannot express; the message is the reason the summary lists.
class UnreplayableKernel : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct RealTensor {
    std::vector<std::int64_t> physicalShape;  // as recorded
    DataType dtype = DataType::Fp32;
    TensorFormat format = TensorFormat::ND;   // NCL and other plain layouts read as ND
    std::string dtypeText, formatText;        // as recorded, for messages
    bool absent = false;                      // an optional tensor not given (DT_UNDEFINED)
};

// Throws UnreplayableKernel for a dtype or format the simulator has no counterpart of.
std::vector<RealTensor> realInputs(const RealKernel& kernel);
std::vector<RealTensor> realOutputs(const RealKernel& kernel);

// The logical shape of `t` (see above); a scalar ("" cell) is [1]. FRACTAL_Z is returned as
// recorded (its logical shape needs the kernel size).
std::vector<std::int64_t> logicalShape(const RealTensor& t);

// A TensorInfo for the catalog: logical shape, dtype and format; `name` as given.
TensorInfo catalogTensor(const RealTensor& t, const std::string& name);
TensorInfo catalogTensor(const RealTensor& t, const std::string& name, std::vector<std::int64_t> shape);

std::string shapeText(const std::vector<std::int64_t>& shape);  // "32,3,224,224"

// Bytes `t` occupies as recorded (physical shape × dtype size); 0 for an absent tensor. Throws
// UnreplayableKernel past 2^63 bytes.
std::uint64_t tensorBytes(const RealTensor& t);

}  // namespace ascendsim
