#include "sim/microbench/reference_measurements.h"

namespace ascendsim {

const std::vector<TransferReference>& transferReferences() {
    using M = MemSpace;
    constexpr auto kNone = LayoutConversion::None;
    static const std::vector<TransferReference> kRows = {
        {M::GM, M::L1, kNone, 1, 9.9, "910b1"},     {M::GM, M::L1, kNone, 4, 29.3, "910b1"},
        {M::GM, M::L1, kNone, 16, 93.2, "910b1"},   {M::GM, M::L1, kNone, 32, 147.4, "910b1"},
        {M::GM, M::L1, kNone, 64, 176.3, "910b1"},  {M::GM, M::L1, kNone, 128, 232.5, "910b1"},
        {M::GM, M::L1, kNone, 480, 281.0, "910b1"},
        {M::GM, M::L1, LayoutConversion::Nd2Nz, 4, 8.8, "910b1"},
        {M::GM, M::L1, LayoutConversion::Nd2Nz, 16, 34.6, "910b1"},
        {M::GM, M::L1, LayoutConversion::Nd2Nz, 32, 70.1, "910b1"},
        {M::GM, M::L1, LayoutConversion::Nd2Nz, 64, 133.3, "910b1"},
        {M::GM, M::L1, LayoutConversion::Nd2Nz, 128, 191.2, "910b1"},
        {M::GM, M::L1, LayoutConversion::Nd2Nz, 192, 204.4, "910b1"},
        {M::GM, M::UB, kNone, 1, 7.9, "910b3"},     {M::GM, M::UB, kNone, 4, 28.9, "910b3"},
        {M::GM, M::UB, kNone, 16, 91.6, "910b3"},   {M::GM, M::UB, kNone, 32, 113.4, "910b3"},
        {M::GM, M::UB, kNone, 64, 147.1, "910b3"},  {M::GM, M::UB, kNone, 128, 178.8, "910b3"},
        {M::GM, M::UB, kNone, 184, 189.9, "910b3"},
        {M::UB, M::GM, kNone, 1, 11.4, "910b1"},    {M::UB, M::GM, kNone, 4, 37.9, "910b1"},
        {M::UB, M::GM, kNone, 16, 86.8, "910b1"},   {M::UB, M::GM, kNone, 32, 108.4, "910b1"},
        {M::UB, M::GM, kNone, 64, 110.7, "910b1"},
        {M::L0C, M::GM, kNone, 1, 20.8, "910b1"},   {M::L0C, M::GM, kNone, 4, 85.8, "910b1"},
        {M::L0C, M::GM, kNone, 11, 211.4, "910b1"}, {M::L0C, M::GM, kNone, 16, 203.2, "910b1"},
        {M::L0C, M::GM, kNone, 32, 201.3, "910b1"}, {M::L0C, M::GM, kNone, 64, 196.5, "910b1"},
        {M::L0C, M::GM, kNone, 128, 196.8, "910b1"},
        {M::L0C, M::GM, LayoutConversion::Nz2Nd, 1, 18.6, "910b1"},
        {M::L0C, M::GM, LayoutConversion::Nz2Nd, 4, 75.1, "910b1"},
        {M::L0C, M::GM, LayoutConversion::Nz2Nd, 12, 212.6, "910b1"},
        {M::L0C, M::GM, LayoutConversion::Nz2Nd, 16, 199.4, "910b1"},
        {M::L0C, M::GM, LayoutConversion::Nz2Nd, 32, 197.2, "910b1"},
        {M::L1, M::L0A, kNone, 1, 286.9, "910b1"},  {M::L1, M::L0A, kNone, 4, 389.9, "910b1"},
        {M::L1, M::L0A, kNone, 16, 427.3, "910b1"}, {M::L1, M::L0A, kNone, 32, 434.0, "910b1"},
        {M::L1, M::L0A, kNone, 64, 437.6, "910b1"},
        {M::L1, M::L0B, kNone, 1, 174.1, "910b1"},  {M::L1, M::L0B, kNone, 4, 206.9, "910b1"},
        {M::L1, M::L0B, kNone, 16, 217.0, "910b1"}, {M::L1, M::L0B, kNone, 32, 218.8, "910b1"},
        {M::L1, M::L0B, kNone, 64, 219.6, "910b1"},
        {M::GM, M::L0A, kNone, 1, 8.0, "910b3"},    {M::GM, M::L0A, kNone, 4, 30.4, "910b3"},
        {M::GM, M::L0A, kNone, 16, 106.3, "910b3"}, {M::GM, M::L0A, kNone, 32, 139.8, "910b3"},
        {M::GM, M::L0A, kNone, 56, 183.8, "910b3"}, {M::GM, M::L0A, kNone, 64, 178.5, "910b3"},
        {M::GM, M::L0B, kNone, 1, 8.6, "910b3"},    {M::GM, M::L0B, kNone, 4, 31.3, "910b3"},
        {M::GM, M::L0B, kNone, 16, 83.5, "910b3"},  {M::GM, M::L0B, kNone, 32, 120.0, "910b3"},
        {M::GM, M::L0B, kNone, 58, 156.4, "910b3"}, {M::GM, M::L0B, kNone, 64, 153.9, "910b3"},
        {M::UB, M::UB, kNone, 1, 436.7, "910b1"},   {M::UB, M::UB, kNone, 60, 441.0, "910b1"},
        {M::L1, M::BiasTable, kNone, 1, 55.1, "910b1"},
        {M::L1, M::FixpipeBuffer, kNone, 1, 37.5, "910b1"},
    };
    return kRows;
}

const std::vector<MmadReference>& mmadReferences() {
    static const std::vector<MmadReference> kRows = {
        {32, 16, 16, 3370}, {32, 16, 32, 5445},  {32, 16, 64, 6686},
        {32, 16, 128, 7258}, {32, 16, 256, 7693}, {32, 16, 976, 8074}};
    return kRows;
}

// Start-up "3-4 cycles" for most ops is taken as 3.5.
const std::vector<VectorReference>& vectorReferences() {
    using O = VectorOp;
    using D = DataType;
    static const std::vector<VectorReference> kRows = {
        {O::Abs, D::Fp16, 255, 3.5},       {O::Adds, D::Fp16, 255, 3.5},
        {O::Add, D::Fp16, 128, 3.5},       {O::Mul, D::Fp16, 128, 3.5},
        {O::Exp, D::Fp16, 65.7, 3.5},      {O::Exp, D::Fp32, 128, 3.5},
        {O::Div, D::Fp16, 64, 3.5},        {O::MulAdd, D::Fp16, 42.7, 3.5},
        {O::ReduceSum, D::Fp16, 36.5, 7},  {O::ReduceMax, D::Fp16, 36.5, 7},
        {O::Gather, D::Int16, 10.6, 27},   {O::Gather, D::Int32, 21, 27},
        {O::Sort, D::Fp16, 15.6, 22},
    };
    return kRows;
}

}  // namespace ascendsim
