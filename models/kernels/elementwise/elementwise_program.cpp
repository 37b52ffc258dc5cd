#include "models/kernels/elementwise/elementwise_program.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "models/kernels/elementwise/elementwise_plan.h"

namespace ascendsim {

using Kind = ElementwiseProgram::Kind;

std::int64_t ElementwisePlan::rowOffset(std::uint64_t row, const std::vector<std::int64_t>& strides) const {
    std::int64_t offset = 0;
    auto rest = static_cast<std::int64_t>(row);
    for (std::size_t d = outerDims.size(); d-- > 0;) {
        offset += (rest % outerDims[d]) * strides[d];
        rest /= outerDims[d];
    }
    return offset;
}

std::uint64_t ElementwisePlan::contiguousRowRun(std::uint64_t row) const {
    std::uint64_t run = rows - row;
    for (const auto& in : inputs) {
        if (in.kind != Kind::Row) continue;
        if (outerDims.empty()) continue;
        const std::int64_t last = outerDims.back();
        if (in.outerStrides.back() != 1) return 1;
        run = std::min<std::uint64_t>(run, static_cast<std::uint64_t>(last - static_cast<std::int64_t>(row) % last));
    }
    return std::max<std::uint64_t>(run, 1);
}

ElementwiseProgram::ElementwiseProgram(const OpInstance& op, DataType computeType,
                                       std::vector<std::int64_t> outerDims, std::int64_t rowLength)
    : plan_(std::make_shared<ElementwisePlan>()), op_(op) {
    plan_->opName = op.name;
    plan_->computeType = computeType;
    plan_->rows = 1;
    for (auto d : outerDims) plan_->rows *= static_cast<std::uint64_t>(d);
    plan_->outerDims = std::move(outerDims);
    plan_->rowLength = static_cast<std::uint64_t>(std::max<std::int64_t>(rowLength, 1));
}

ElementwiseProgram::~ElementwiseProgram() = default;

namespace {
ElementwiseProgram::Value addInput(ElementwisePlan& plan, Kind kind, const TensorInfo& tensor,
                                   std::vector<std::int64_t> strides) {
    strides.resize(plan.outerDims.size(), 0);
    plan.inputs.push_back({kind, tensor.dtype, tensor.deviceAddr, std::move(strides), {}});
    ElementwiseValue value;
    value.kind = kind;
    value.input = static_cast<int>(plan.inputs.size() - 1);
    value.castFromInput = tensor.dtype != plan.computeType;
    plan.values.push_back(value);
    return static_cast<ElementwiseProgram::Value>(plan.values.size() - 1);
}
}  // namespace

ElementwiseProgram::Value ElementwiseProgram::elements(const TensorInfo& tensor,
                                                       std::vector<std::int64_t> outerStrides) {
    return addInput(*plan_, Kind::Element, tensor, std::move(outerStrides));
}
ElementwiseProgram::Value ElementwiseProgram::rowValues(const TensorInfo& tensor,
                                                        std::vector<std::int64_t> outerStrides) {
    return addInput(*plan_, Kind::Row, tensor, std::move(outerStrides));
}
ElementwiseProgram::Value ElementwiseProgram::scalar(const TensorInfo& tensor) {
    return addInput(*plan_, Kind::Scalar, tensor, {});
}
ElementwiseProgram::Value ElementwiseProgram::constant(float value) {
    ElementwiseValue v;
    v.kind = Kind::Scalar;
    v.isConstant = true;
    v.constant = value;
    plan_->values.push_back(v);
    return static_cast<Value>(plan_->values.size() - 1);
}

ElementwiseProgram::Value ElementwiseProgram::unary(VectorOp op, Value a, float scalarOperand) {
    ElementwiseValue v;
    v.kind = plan_->values.at(a).kind;
    plan_->values.push_back(v);
    const auto dst = static_cast<Value>(plan_->values.size() - 1);
    plan_->steps.push_back({op, dst, a, a, false, scalarOperand});
    return dst;
}

ElementwiseProgram::Value ElementwiseProgram::binary(VectorOp op, Value a, Value b) {
    ElementwiseValue v;
    v.kind = std::max(plan_->values.at(a).kind, plan_->values.at(b).kind);
    plan_->values.push_back(v);
    const auto dst = static_cast<Value>(plan_->values.size() - 1);
    plan_->steps.push_back({op, dst, a, b, true, 0.0f});
    return dst;
}

ElementwiseProgram::Kind ElementwiseProgram::kindOf(Value v) const { return plan_->values.at(v).kind; }

void ElementwiseProgram::store(Value v, const TensorInfo& tensor) {
    if (plan_->values.at(v).kind != Kind::Element)
        throwLoweringError(op_, "only per-element values can be stored");
    plan_->outputs.push_back({v, tensor.dtype, tensor.deviceAddr, {}, false, 0});
}

void ElementwiseProgram::store(Value v, const TensorInfo& tensor, std::uint64_t rowPitch) {
    if (rowPitch < plan_->rowLength) throwLoweringError(op_, "an output row pitch must hold a whole row");
    store(v, tensor);
    plan_->outputs.back().rowPitch = rowPitch;
}

namespace {

// Assigns compute-type buffers to values, reusing a buffer once its value is dead. Returns the
// number of Element and Row buffers needed; `slotOf[v]` is the buffer index of value v.
struct SlotAssignment {
    std::vector<int> slotOf;
    std::uint32_t elementSlots = 0, rowSlots = 0;
};

SlotAssignment assignSlots(ElementwisePlan& plan) {
    const auto stepCount = static_cast<std::uint32_t>(plan.steps.size());
    for (auto& v : plan.values) v.lastUse = 0;
    for (std::uint32_t s = 0; s < stepCount; ++s) {
        plan.values[plan.steps[s].a].lastUse = s;
        plan.values[plan.steps[s].b].lastUse = s;
    }
    for (auto& out : plan.outputs) plan.values[out.value].lastUse = stepCount;
    // A value computed straight into its output's staging buffer needs no slot.
    for (auto& out : plan.outputs) {
        const auto& v = plan.values[out.value];
        const bool producedByStep = v.input < 0 && !v.isConstant;
        const bool sole = std::count_if(plan.outputs.begin(), plan.outputs.end(),
                                        [&](const ElementwiseOutput& o) { return o.value == out.value; }) == 1;
        out.computedInPlace = producedByStep && sole && out.dtype == plan.computeType;
    }
    SlotAssignment result;
    result.slotOf.assign(plan.values.size(), -1);
    std::vector<int> freeElement, freeRow;
    auto take = [&](Kind kind) {
        auto& pool = kind == Kind::Element ? freeElement : freeRow;
        auto& count = kind == Kind::Element ? result.elementSlots : result.rowSlots;
        if (!pool.empty()) {
            const int slot = pool.back();
            pool.pop_back();
            return slot;
        }
        return static_cast<int>(count++);
    };
    auto needsSlot = [&](std::uint32_t v) {
        const auto& value = plan.values[v];
        if (value.kind == Kind::Scalar) return false;
        if (value.input >= 0) return value.castFromInput;
        return !std::any_of(plan.outputs.begin(), plan.outputs.end(),
                            [&](const ElementwiseOutput& o) { return o.value == v && o.computedInPlace; });
    };
    // Casted inputs are produced at the start of a tile and live until their last use.
    for (std::uint32_t v = 0; v < plan.values.size(); ++v)
        if (plan.values[v].input >= 0 && needsSlot(v)) result.slotOf[v] = take(plan.values[v].kind);
    for (std::uint32_t s = 0; s < stepCount; ++s) {
        const auto& step = plan.steps[s];
        for (std::uint32_t operand : {step.a, step.b}) {
            if (result.slotOf[operand] >= 0 && plan.values[operand].lastUse == s) {
                (plan.values[operand].kind == Kind::Element ? freeElement : freeRow).push_back(result.slotOf[operand]);
                result.slotOf[operand] = -(result.slotOf[operand] + 2);  // freed, remember it
            }
        }
        if (needsSlot(step.dst)) result.slotOf[step.dst] = take(plan.values[step.dst].kind);
    }
    for (auto& slot : result.slotOf)
        if (slot <= -2) slot = -slot - 2;
    return result;
}

}  // namespace

void ElementwiseProgram::useOneBuffer() { plan_->oneBuffer = true; }

LoweredKernel ElementwiseProgram::lower(const ChipConfig& chip) const {
    auto plan = std::make_shared<ElementwisePlan>(*plan_);
    if (plan->outputs.empty()) throwLoweringError(op_, "elementwise program without outputs");
    const VectorPlacement placement = vectorPlacement(chip);
    const SlotAssignment slots = assignSlots(*plan);
    plan->movesOnly = plan->steps.empty() && std::all_of(plan->outputs.begin(), plan->outputs.end(), [&](const ElementwiseOutput& o) {
        const ElementwiseValue& v = plan->values[o.value];
        return v.input >= 0 && !v.castFromInput && v.kind == Kind::Element &&
               plan->inputs[static_cast<std::size_t>(v.input)].dtype == o.dtype;
    });
    const DataType ct = plan->computeType;
    const std::uint64_t ctBytes = bytesOf(ct);

    // Which Row values feed Element steps (those need their blocks expanded per tile).
    std::uint32_t expansions = 0;
    for (const auto& step : plan->steps) {
        if (plan->values[step.dst].kind != Kind::Element) continue;
        for (std::uint32_t operand : {step.a, step.b}) {
            auto& v = plan->values[operand];
            if (v.kind == Kind::Row && !v.needsExpansion) {
                v.needsExpansion = true;
                ++expansions;
            }
        }
    }
    std::uint64_t minBytes = ctBytes, bytesPerElement = slots.elementSlots * ctBytes,
                  bytesPerRow = slots.rowSlots * ctBytes + expansions * kUbBlockBytes;
    std::uint64_t scalarBlocks = 0, buffers = slots.elementSlots + slots.rowSlots + expansions + 1;
    for (const auto& v : plan->values) scalarBlocks += v.kind == Kind::Scalar ? 1 : 0;
    for (const auto& in : plan->inputs) {
        if (in.kind == Kind::Element) {
            bytesPerElement += 2 * bytesOf(in.dtype);
            minBytes = std::min<std::uint64_t>(minBytes, bytesOf(in.dtype));
        } else if (in.kind == Kind::Row) {
            bytesPerRow += 2 * bytesOf(in.dtype);
        } else {
            ++scalarBlocks;  // staging block
        }
        buffers += 2;
    }
    for (const auto& out : plan->outputs) {
        if (plan->movesOnly) continue;  // stored from its input's buffer
        bytesPerElement += 2 * bytesOf(out.dtype);
        minBytes = std::min<std::uint64_t>(minBytes, bytesOf(out.dtype));
        buffers += 2;
    }
    const std::uint64_t perBlockEntries = elementsPerBlock(ct);
    if (expansions > 0) bytesPerRow += perBlockEntries * 4;
    const std::uint64_t fixedBytes =
        scalarBlocks * kUbBlockBytes + perBlockEntries * 4 + (buffers + scalarBlocks) * kUbBlockBytes;
    if (fixedBytes >= placement.ubBytes) throwLoweringError(op_, "too many operands for UB");
    const std::uint64_t budget = placement.ubBytes - fixedBytes;

    const std::uint64_t padded = alignUp(plan->rowLength, kUbBlockBytes / minBytes);
    const std::uint64_t rowsThatFit = budget / (padded * bytesPerElement + bytesPerRow);
    const bool fewLongRows = plan->rows < placement.coreCount && plan->rowLength > 2 * plan->granule;
    plan->chunkMode = rowsThatFit == 0 || fewLongRows;
    std::uint64_t tileRows = 1, tileElements = 0;
    if (plan->chunkMode) {
        plan->granulesPerTile = (budget - std::min(budget, bytesPerRow)) / (bytesPerElement * plan->granule);
        if (plan->granulesPerTile == 0) throwLoweringError(op_, "a 256-element tile does not fit in UB");
        tileElements = plan->granulesPerTile * plan->granule;
    } else {
        plan->rowsPerTile = std::min<std::uint64_t>(rowsThatFit, plan->rows);
        plan->paddedRowLength = padded;
        tileRows = plan->rowsPerTile;
        tileElements = tileRows * padded;
    }

    // The estimate above leaves out per-buffer 32 B alignment and the Gather table; lay out with
    // an unbounded allocator first and shrink the tile (fewer rows, then granules of one row)
    // until every buffer fits, so the estimate's tile is kept whenever it does fit.
    auto layOut = [&](UbAllocator& ub, std::uint64_t rowsInTile, std::uint64_t elementsInTile) {
        plan->tableValues = std::max<std::uint64_t>(rowsInTile, 1);
        plan->table = ub.allocate(blockOffsetTableBytes(ct, plan->tableValues), "Gather offsets");
        auto doubleBuffer = [&](std::uint64_t bytes, const char* what) {
            const std::uint64_t stride = alignUp(bytes, kUbBlockBytes);
            return UbSlot{ub.allocate(2 * stride, what), stride};
        };
        for (auto& in : plan->inputs) {
            if (in.kind == Kind::Element) in.loaded = doubleBuffer(elementsInTile * bytesOf(in.dtype), "an input tile");
            else if (in.kind == Kind::Row) in.loaded = doubleBuffer(rowsInTile * bytesOf(in.dtype), "row values");
            else in.loaded = {ub.allocate(kUbBlockBytes, "a scalar"), 0};
        }
        for (auto& out : plan->outputs)
            out.buffer = plan->movesOnly ? plan->inputs[static_cast<std::size_t>(plan->values[out.value].input)].loaded
                                         : doubleBuffer(elementsInTile * bytesOf(out.dtype), "an output tile");
        std::vector<std::uint64_t> elementSlot(slots.elementSlots), rowSlot(slots.rowSlots);
        for (auto& a : elementSlot) a = ub.allocate(elementsInTile * ctBytes, "a temporary tile");
        for (auto& a : rowSlot) a = ub.allocate(rowsInTile * ctBytes, "temporary row values");
        for (std::uint32_t v = 0; v < plan->values.size(); ++v) {
            auto& value = plan->values[v];
            if (value.kind == Kind::Scalar) {
                value.storage = {ub.allocate(kUbBlockBytes, "a scalar block"), 0};
                continue;
            }
            if (value.needsExpansion) value.expanded = ub.allocate(rowsInTile * kUbBlockBytes, "row blocks");
            if (value.input >= 0 && !value.castFromInput) {
                value.storage = plan->inputs[static_cast<std::size_t>(value.input)].loaded;
            } else if (slots.slotOf[v] >= 0) {
                const auto slot = static_cast<std::size_t>(slots.slotOf[v]);
                value.storage = {value.kind == Kind::Element ? elementSlot[slot] : rowSlot[slot], 0};
            }
        }
        for (const auto& out : plan->outputs)
            if (out.computedInPlace) plan->values[out.value].storage = out.buffer;
    };
    auto fits = [&](std::uint64_t rowsInTile, std::uint64_t elementsInTile) {
        UbAllocator unbounded(std::numeric_limits<std::uint64_t>::max() / 2, op_.name);
        layOut(unbounded, rowsInTile, elementsInTile);
        return unbounded.usedBytes() <= placement.ubBytes;
    };
    while (!fits(tileRows, tileElements)) {
        if (!plan->chunkMode && plan->rowsPerTile > 1) {
            tileRows = plan->rowsPerTile = plan->rowsPerTile - 1;
            tileElements = tileRows * plan->paddedRowLength;
        } else if (!plan->chunkMode) {
            plan->chunkMode = true;
            plan->rowsPerTile = plan->paddedRowLength = 0;
            tileRows = 1;
            plan->granulesPerTile = ceilDiv(plan->rowLength, plan->granule);
            tileElements = plan->granulesPerTile * plan->granule;
        } else if (plan->granulesPerTile > 1) {
            tileElements = --plan->granulesPerTile * plan->granule;
        } else {
            throwLoweringError(op_, "a 256-element tile does not fit in UB");
        }
    }
    UbAllocator ub(placement.ubBytes, op_.name);
    layOut(ub, tileRows, tileElements);

    std::uint64_t workBytes = 0;
    for (const auto& in : plan->inputs)
        if (in.kind == Kind::Element) workBytes += plan->rows * plan->rowLength * bytesOf(in.dtype);
    for (const auto& out : plan->outputs) workBytes += plan->rows * plan->rowLength * bytesOf(out.dtype);

    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = chooseVectorBlockDim(op_, placement, workBytes, plan->units());
    const std::uint32_t blockDim = kernel.blockDim;
    std::shared_ptr<const ElementwisePlan> shared = plan;
    kernel.program = [shared, blockDim](const BlockProgramRequest& request) {
        return makeElementwiseStream(shared, blockShare(shared->units(), blockDim, request.blockIdx));
    };
    return kernel;
}

}  // namespace ascendsim
