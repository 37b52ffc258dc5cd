#include "models/functional/vector_semantics.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "models/functional/float_conversion.h"

namespace ascendsim {

namespace {

constexpr std::uint64_t kBlockBytes = 32;    // hardware.md §2.3: UB block
constexpr std::uint64_t kRepeatBytes = 256;  // hardware.md §2.6: one repeat = 8 blocks

// One strided operand of a vector instruction.
class Operand {
public:
    Operand(std::vector<std::uint8_t>& ub, std::uint64_t base, std::size_t elementBytes,
            std::uint8_t blockStride, std::uint16_t repeatStride, const char* role)
        : ub_(ub), base_(base), elementBytes_(elementBytes),
          elementsPerBlock_(kBlockBytes / elementBytes), blockStride_(blockStride),
          repeatStride_(repeatStride), role_(role) {}

    std::uint8_t* at(std::uint32_t repeat, std::uint32_t element) const {
        const std::uint64_t addr = base_ + std::uint64_t{repeat} * repeatStride_ * kBlockBytes +
                                   (element / elementsPerBlock_) * blockStride_ * kBlockBytes +
                                   (element % elementsPerBlock_) * elementBytes_;
        return checked(addr, elementBytes_);
    }

    std::uint8_t* checked(std::uint64_t addr, std::size_t bytes) const {
        if (addr + bytes > ub_.size() || addr + bytes < addr)
            throw std::out_of_range(std::string("vector instruction: ") + role_ + " access at UB byte " +
                                    std::to_string(addr) + " (+" + std::to_string(bytes) +
                                    ") leaves the " + std::to_string(ub_.size()) + "-byte UB");
        return ub_.data() + addr;
    }

private:
    std::vector<std::uint8_t>& ub_;
    std::uint64_t base_;
    std::uint64_t elementBytes_;
    std::uint64_t elementsPerBlock_;
    std::uint64_t blockStride_;
    std::uint64_t repeatStride_;
    const char* role_;
};

std::uint64_t loadRawBits(const std::uint8_t* p, std::size_t bytes) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, p, bytes);  // little-endian host, like the device
    return bits;
}

bool needsFloat(VectorOp op) {
    switch (op) {
        case VectorOp::Div: case VectorOp::Exp: case VectorOp::Ln: case VectorOp::Sqrt:
        case VectorOp::Rsqrt: case VectorOp::Reciprocal:
            return true;
        default:
            return false;
    }
}

double binary(VectorOp op, double a, double b) {
    switch (op) {
        case VectorOp::Add: return a + b;
        case VectorOp::Sub: return a - b;
        case VectorOp::Mul: return a * b;
        case VectorOp::Div: return a / b;
        case VectorOp::Max: return std::max(a, b);
        case VectorOp::Min: return std::min(a, b);
        case VectorOp::CompareGt: return a > b ? 1.0 : 0.0;
        default: throw std::logic_error("not a binary vector op");
    }
}

double unary(VectorOp op, double x, double scalar) {
    switch (op) {
        case VectorOp::Adds: return x + scalar;
        case VectorOp::Muls: return x * scalar;
        case VectorOp::Maxs: return std::max(x, scalar);
        case VectorOp::Mins: return std::min(x, scalar);
        case VectorOp::LeakyRelu: return x >= 0 ? x : x * scalar;
        case VectorOp::Relu: return x > 0 ? x : 0.0;
        case VectorOp::Abs: return std::fabs(x);
        case VectorOp::Exp: return std::exp(x);
        case VectorOp::Ln: return std::log(x);
        case VectorOp::Sqrt: return std::sqrt(x);
        case VectorOp::Rsqrt: return 1.0 / std::sqrt(x);
        case VectorOp::Reciprocal: return 1.0 / x;
        case VectorOp::Copy: return x;
        case VectorOp::Duplicate: return scalar;
        default: throw std::logic_error("not a unary vector op");
    }
}

// NaN sorts before every number, so the order is total.
bool greaterNanFirst(double a, double b) {
    if (std::isnan(a)) return !std::isnan(b);
    if (std::isnan(b)) return false;
    return a > b;
}

// vcgadd / vcgmax: each block's active elements to one value, 8 results per repeat written
// contiguously; vbrcb: element i of the repeat's 8 contiguous sources fills block i.
void executeBlockInstruction(const VectorInstr& in, const Operand& src0, const Operand& dst) {
    const std::size_t elementBytes = bytesOf(in.dtype);
    const std::uint32_t perBlock = static_cast<std::uint32_t>(kBlockBytes / elementBytes);
    for (std::uint32_t r = 0; r < in.repeats; ++r) {
        for (std::uint32_t block = 0; block < kVectorBlocksPerRepeat; ++block) {
            const std::uint64_t slot = std::uint64_t{r} * kVectorBlocksPerRepeat + block;
            if (in.op == VectorOp::BlockBroadcast) {
                const double x = loadElement(src0.checked(in.src0 + slot * elementBytes, elementBytes), in.dtype);
                for (std::uint32_t i = 0; i < perBlock; ++i) storeElement(dst.at(r, block * perBlock + i), in.dtype, x);
                continue;
            }
            const std::uint32_t first = block * perBlock;
            if (first >= in.mask) break;
            double acc = loadElement(src0.at(r, first), in.dtype);
            for (std::uint32_t i = first + 1; i < std::min<std::uint32_t>(in.mask, first + perBlock); ++i) {
                const double x = loadElement(src0.at(r, i), in.dtype);
                acc = in.op == VectorOp::BlockReduceSum ? acc + x : std::max(acc, x);
            }
            storeElement(dst.checked(in.dst + slot * elementBytes, elementBytes), in.dtype, acc);
        }
    }
}

// vnchwconv (VectorOp::NchwConv): per repeat, 16 source blocks in, 16 destination blocks out,
// moved as raw bits (the instruction transposes, it does not convert). 16-bit: dst block j
// element i = src block i element j. 32-bit: loop j writes element j of src blocks 0–7 to dst
// block 2·j and of src blocks 8–15 to dst block 2·j + 1.
void executeNchwConv(const VectorInstr& in, std::vector<std::uint8_t>& ub) {
    const std::size_t elementBytes = bytesOf(in.dtype);
    if (elementBytes != 2 && elementBytes != 4)
        throw std::invalid_argument("vnchwconv: dtype " + std::string(dataTypeName(in.dtype)) + " is neither 16- nor 32-bit");
    const std::size_t perBlock = kBlockBytes / elementBytes;
    const Operand src(ub, in.src0, elementBytes, in.src0BlockStride, in.src0RepeatStride, "src0");
    const Operand dst(ub, in.dst, elementBytes, in.dstBlockStride, in.dstRepeatStride, "dst");
    std::vector<std::uint8_t> tile(std::size_t{kNchwConvBlocks} * kBlockBytes);
    for (std::uint32_t r = 0; r < in.repeats; ++r) {
        for (std::uint32_t i = 0; i < kNchwConvBlocks; ++i)  // read every source before writing: dst may alias src
            std::memcpy(&tile[i * kBlockBytes], src.checked(in.src0 + nchwConvBlockOffset(in, false, i, r) * kBlockBytes, kBlockBytes),
                        kBlockBytes);
        for (std::uint32_t b = 0; b < kNchwConvBlocks; ++b) {
            std::uint8_t* out = dst.checked(in.dst + nchwConvBlockOffset(in, true, b, r) * kBlockBytes, kBlockBytes);
            // Destination block b holds element `column` of the sources first .. first + perBlock − 1.
            const std::size_t column = perBlock == kNchwConvBlocks ? b : b / 2;
            const std::size_t first = perBlock == kNchwConvBlocks ? 0 : b % 2 * perBlock;
            for (std::size_t e = 0; e < perBlock; ++e)
                std::memcpy(out + e * elementBytes, &tile[(first + e) * kBlockBytes + column * elementBytes], elementBytes);
        }
    }
}

}  // namespace

void executeVectorInstruction(const VectorInstr& in, std::vector<std::uint8_t>& ub) {
    const VectorOp op = in.op;
    if (op == VectorOp::NchwConv) {
        executeNchwConv(in, ub);
        return;
    }
    const std::size_t dstBytes = bytesOf(in.dtype);
    const std::size_t srcBytes = op == VectorOp::Cast ? bytesOf(in.srcType)
                                 : op == VectorOp::Gather ? 4
                                                          : dstBytes;
    const std::size_t widest = op == VectorOp::Cast ? std::max(dstBytes, srcBytes) : dstBytes;
    const std::uint32_t elementsPerRepeat = static_cast<std::uint32_t>(kRepeatBytes / widest);
    if (in.mask > elementsPerRepeat)
        throw std::invalid_argument(std::string(vectorOpName(op)) + ": mask " + std::to_string(in.mask) +
                                    " exceeds " + std::to_string(elementsPerRepeat) +
                                    " elements per repeat");
    if (needsFloat(op) && !isFloat(in.dtype))
        throw std::invalid_argument(std::string(vectorOpName(op)) + " needs a float dtype");

    const DataType srcType = op == VectorOp::Cast ? in.srcType : in.dtype;
    const Operand dst(ub, in.dst, dstBytes, in.dstBlockStride, in.dstRepeatStride, "dst");
    const Operand src0(ub, in.src0, op == VectorOp::Cast ? srcBytes : dstBytes, in.src0BlockStride,
                       in.src0RepeatStride, "src0");
    const Operand src1(ub, in.src1, srcBytes, in.src1BlockStride, in.src1RepeatStride, "src1");
    const std::uint32_t mask = in.mask;
    std::vector<double> a(mask), b(mask), d(mask);
    const double scalarOperand = in.scalarUbAddr == VectorInstr::kImmediateScalar
                                     ? double{in.scalar}
                                     : loadElement(src0.checked(in.scalarUbAddr, dstBytes), in.dtype);

    if (isBlockReduction(op) || op == VectorOp::BlockBroadcast) {
        executeBlockInstruction(in, src0, dst);
        return;
    }
    for (std::uint32_t r = 0; r < in.repeats; ++r) {
        switch (vectorClassOf(op) == VectorClass::Reduction ? VectorOp::ReduceSum : op) {
            case VectorOp::ReduceSum: {
                double acc = op == VectorOp::ReduceSum ? 0.0 : loadElement(src0.at(r, 0), in.dtype);
                for (std::uint32_t i = 0; i < mask; ++i) {
                    const double x = loadElement(src0.at(r, i), in.dtype);
                    acc = op == VectorOp::ReduceSum ? acc + x
                          : op == VectorOp::ReduceMax ? std::max(acc, x)
                                                      : std::min(acc, x);
                }
                if (mask > 0)
                    storeElement(dst.checked(in.dst + std::uint64_t{r} * dstBytes, dstBytes), in.dtype, acc);
                break;
            }
            case VectorOp::And:
            case VectorOp::Or: {
                std::vector<std::uint64_t> bits(mask);
                for (std::uint32_t i = 0; i < mask; ++i) {
                    const std::uint64_t x = loadRawBits(src0.at(r, i), dstBytes);
                    const std::uint64_t y = loadRawBits(src1.at(r, i), dstBytes);
                    bits[i] = op == VectorOp::And ? (x & y) : (x | y);
                }
                for (std::uint32_t i = 0; i < mask; ++i) std::memcpy(dst.at(r, i), &bits[i], dstBytes);
                break;
            }
            case VectorOp::Gather: {
                for (std::uint32_t i = 0; i < mask; ++i) {
                    std::uint32_t offset = 0;
                    std::memcpy(&offset, src1.at(r, i), sizeof offset);
                    d[i] = loadElement(src0.checked(in.src0 + offset, dstBytes), in.dtype);
                }
                for (std::uint32_t i = 0; i < mask; ++i) storeElement(dst.at(r, i), in.dtype, d[i]);
                break;
            }
            case VectorOp::Sort:
            case VectorOp::BitSort: {
                for (std::uint32_t i = 0; i < mask; ++i) d[i] = loadElement(src0.at(r, i), in.dtype);
                std::sort(d.begin(), d.end(), greaterNanFirst);
                for (std::uint32_t i = 0; i < mask; ++i) storeElement(dst.at(r, i), in.dtype, d[i]);
                break;
            }
            case VectorOp::Add: case VectorOp::Sub: case VectorOp::Mul: case VectorOp::Div:
            case VectorOp::Max: case VectorOp::Min: case VectorOp::CompareGt: {
                for (std::uint32_t i = 0; i < mask; ++i)
                    d[i] = binary(op, loadElement(src0.at(r, i), in.dtype),
                                  loadElement(src1.at(r, i), in.dtype));
                for (std::uint32_t i = 0; i < mask; ++i) storeElement(dst.at(r, i), in.dtype, d[i]);
                break;
            }
            case VectorOp::MulAdd:
            case VectorOp::Select: {
                for (std::uint32_t i = 0; i < mask; ++i) {
                    a[i] = loadElement(src0.at(r, i), in.dtype);
                    b[i] = loadElement(src1.at(r, i), in.dtype);
                    const double old = loadElement(dst.at(r, i), in.dtype);
                    d[i] = op == VectorOp::MulAdd ? a[i] * b[i] + old : (old != 0.0 ? a[i] : b[i]);
                }
                for (std::uint32_t i = 0; i < mask; ++i) storeElement(dst.at(r, i), in.dtype, d[i]);
                break;
            }
            case VectorOp::Cast: {
                for (std::uint32_t i = 0; i < mask; ++i) d[i] = loadElement(src0.at(r, i), srcType);
                for (std::uint32_t i = 0; i < mask; ++i) storeElement(dst.at(r, i), in.dtype, d[i]);
                break;
            }
            case VectorOp::Duplicate: {
                for (std::uint32_t i = 0; i < mask; ++i) storeElement(dst.at(r, i), in.dtype, in.scalar);
                break;
            }
            default: {  // unary and scalar-operand ops
                for (std::uint32_t i = 0; i < mask; ++i)
                    d[i] = unary(op, loadElement(src0.at(r, i), in.dtype), scalarOperand);
                for (std::uint32_t i = 0; i < mask; ++i) storeElement(dst.at(r, i), in.dtype, d[i]);
                break;
            }
        }
    }
}

}  // namespace ascendsim
