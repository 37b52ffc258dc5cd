#include "models/functional/mmad_semantics.h"

#include <Eigen/Dense>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

#include "models/functional/float_conversion.h"

namespace ascendsim {

namespace {
constexpr const char* kWhat = "Mmad";
constexpr int kHf32DroppedMantissaBits = 23 - 10;

using FloatMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using IntMatrix = Eigen::Matrix<std::int64_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <typename Matrix>
Matrix loadMatrix(const std::uint8_t* bytes, std::uint32_t rows, std::uint32_t cols, DataType dtype) {
    Matrix matrix(rows, cols);
    const std::size_t elementBytes = bytesOf(dtype);
    for (std::uint32_t r = 0; r < rows; ++r)
        for (std::uint32_t c = 0; c < cols; ++c) {
            const double value = loadElement(bytes + (std::uint64_t{r} * cols + c) * elementBytes, dtype);
            if constexpr (std::is_same_v<Matrix, IntMatrix>)
                matrix(r, c) = static_cast<std::int64_t>(value);
            else
                matrix(r, c) = dtype == DataType::Hf32 ? roundToHf32(static_cast<float>(value))
                                                       : static_cast<float>(value);
        }
    return matrix;
}

template <typename Matrix>
void multiplyAccumulate(const Mmad& mmad, CoreMemory& memory, DataType inputType, DataType accType) {
    const std::uint64_t inBytes = bytesOf(inputType);
    const std::uint8_t* a = memory.span(MemSpace::L0A, mmad.l0aAddr, std::uint64_t{mmad.m} * mmad.k * inBytes, kWhat);
    const std::uint8_t* b = memory.span(MemSpace::L0B, mmad.l0bAddr, std::uint64_t{mmad.k} * mmad.n * inBytes, kWhat);
    std::uint8_t* c = memory.span(MemSpace::L0C, mmad.l0cAddr, std::uint64_t{mmad.m} * mmad.n * 4, kWhat);

    const Matrix lhs = mmad.transposeA ? Matrix(loadMatrix<Matrix>(a, mmad.k, mmad.m, inputType).transpose())
                                       : loadMatrix<Matrix>(a, mmad.m, mmad.k, inputType);
    const Matrix rhs = mmad.transposeB ? Matrix(loadMatrix<Matrix>(b, mmad.n, mmad.k, inputType).transpose())
                                       : loadMatrix<Matrix>(b, mmad.k, mmad.n, inputType);
    Matrix acc;
    if (mmad.initialize) {
        acc = Matrix::Zero(mmad.m, mmad.n);
        if (mmad.addBiasFromTable) {
            memory.checkAligned(MemSpace::BiasTable, mmad.biasAddr, kWhat);
            const Matrix bias = loadMatrix<Matrix>(
                memory.span(MemSpace::BiasTable, mmad.biasAddr, std::uint64_t{mmad.n} * 4, kWhat), 1,
                mmad.n, accType);
            acc.rowwise() = bias.row(0);
        }
    } else {
        acc = loadMatrix<Matrix>(c, mmad.m, mmad.n, accType);
    }
    acc.noalias() += lhs * rhs;
    for (std::uint32_t r = 0; r < mmad.m; ++r)
        for (std::uint32_t col = 0; col < mmad.n; ++col)
            storeElement(c + (std::uint64_t{r} * mmad.n + col) * 4, accType, static_cast<double>(acc(r, col)));
}
}  // namespace

float roundToHf32(float value) {
    std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
    if ((bits & 0x7F800000u) == 0x7F800000u) return value;  // inf/NaN unchanged
    const std::uint32_t half = 1u << (kHf32DroppedMantissaBits - 1);
    const std::uint32_t lsb = (bits >> kHf32DroppedMantissaBits) & 1u;
    bits += half - 1 + lsb;
    bits &= ~((1u << kHf32DroppedMantissaBits) - 1);
    return std::bit_cast<float>(bits);
}

void executeMmad(const Mmad& mmad, CoreMemory& memory) {
    memory.checkAligned(MemSpace::L0A, mmad.l0aAddr, kWhat);
    memory.checkAligned(MemSpace::L0B, mmad.l0bAddr, kWhat);
    memory.checkAligned(MemSpace::L0C, mmad.l0cAddr, kWhat);
    switch (mmad.dtype) {
        case DataType::Fp16: case DataType::Bf16: case DataType::Fp32: case DataType::Hf32:
            multiplyAccumulate<FloatMatrix>(mmad, memory, mmad.dtype, DataType::Fp32);
            return;
        case DataType::Int8:
            multiplyAccumulate<IntMatrix>(mmad, memory, mmad.dtype, DataType::Int32);
            return;
        default:
            throw std::runtime_error(std::string(kWhat) + ": unsupported input type " +
                                     std::string(dataTypeName(mmad.dtype)));
    }
}

}  // namespace ascendsim
