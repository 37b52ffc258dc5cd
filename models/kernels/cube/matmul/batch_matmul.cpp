// BatchMatMul lowering (docs/op-catalog.md): a [B..,M,K], b [B..,K,N] (b may be 2-D and is then
// broadcast), optional bias [N] → y [B..,M,N]. Every (batch, m-tile, n-tile) is one output tile of
// the shared cube pipeline; broadcast operands are re-read per batch like CANN's kernel does.
#include "models/kernels/cube/matmul/matmul_operands.h"

namespace ascendsim {

namespace {
std::vector<LoweredKernel> lowerBatchMatMul(const OpInstance& op, const ChipConfig& chip) {
    return lowerMatmulFamily(op, chip, true);
}
}  // namespace

ASCENDSIM_REGISTER_KERNEL("BatchMatMul", lowerBatchMatMul);
ASCENDSIM_REGISTER_KERNEL("BatchMatMulV2", lowerBatchMatMul);

}  // namespace ascendsim
