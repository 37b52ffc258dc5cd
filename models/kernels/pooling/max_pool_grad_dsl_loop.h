#pragma once
// The scalar loop of CANN's DSL MaxPoolGradWithArgmaxV1 (fp32; dynamic/max_pool_grad_with_argmaxv1.py
// → max_pool_grad_with_argmax_v1_dsl). Its schedule (tbe/dsl/unify_schedule/vector/pooling_grad_with_arg/
// pooling_grad_with_arg_schedule.py, docs/fidelity.md §78f) splits the col2img stage by the strides
// and orders it (n, d, c1, window tap, stride_h_inner, stride_w_inner, stride_h_outer,
// stride_w_outer, c0), emitting its instruction at stride_h_outer under a store predicate on (tap,
// phase): every UB tile runs kh·kw·sh·sw iterations of a scalar loop whatever its size.
#include <cstdint>

namespace ascendsim {

// Scalar cycles of one col2img iteration [F]. The AlexNet 910B2 text export's three fp32 rows
// (e5a31957 text/level2 rank0, 1800 MHz) spend 9.7 k / 11.6 k scalar cycles a 13 × 13 / 27 × 27 plane
// (one UB tile, 36 iterations) and 25.6–28.8 k a 55 × 55 block (two 15-row tiles, 72 iterations);
// part of that is the instructions' own issue, which the model already charges. 150 is §127's
// sweep value (130–190, fitted on the band form this file's kernel had then); with the DSL's
// tiling (max_pool_grad_with_argmax_dsl_tiling.h, §174) it still gives the 27 × 27 plane its
// scalar cycles (11.6 k) and the lowest AlexNet aiv_mte2, where 220 would give 13 × 13 and
// 55 × 55 theirs (docs/fidelity.md §174c).
inline constexpr std::uint32_t kDslCol2ImgIterationScalarCycles = 150;

// The scalar cycles of one window tap's col2img loop in one UB tile: its stride_h_inner ×
// stride_w_inner iterations.
inline std::uint32_t dslCol2ImgTapScalarCycles(std::uint64_t strideH, std::uint64_t strideW) {
    return static_cast<std::uint32_t>(strideH * strideW) * kDslCol2ImgIterationScalarCycles;
}

}  // namespace ascendsim
