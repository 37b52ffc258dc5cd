#include "models/kernels/tiling/vector_tiling_stream.h"

#include <algorithm>

#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {
constexpr std::uint8_t kOnceEvent = 2;  // setup / finish; tiles use 0 and 1

void append(std::vector<Instruction>& out, const std::vector<Instruction>& code) {
    out.insert(out.end(), code.begin(), code.end());
}
}  // namespace

bool DoubleBufferedStream::next(std::vector<Instruction>& out) {
    const std::size_t before = out.size();
    while (out.size() == before) {
        switch (phase_) {
            case Phase::Setup:
                emitSetup(out);
                phase_ = Phase::Tiles;
                break;
            case Phase::Tiles:
                if (nextTile_ < source_->tileCount()) {
                    emitTile(nextTile_++, out);
                } else {
                    phase_ = Phase::Finish;
                }
                break;
            case Phase::Finish:
                emitFinish(out);
                phase_ = Phase::Done;
                break;
            case Phase::Done:
                return false;
        }
    }
    return true;
}

void DoubleBufferedStream::emitSetup(std::vector<Instruction>& out) {
    code_.clear();
    source_->setup(code_);
    out.push_back(Instruction::scalar(kScalarCyclesPerTile + code_.scalarCycles));
    if (!code_.load.empty()) {
        append(out, code_.load);
        out.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::Vector, kOnceEvent));
        out.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::Vector, kOnceEvent));
    }
    if (!code_.compute.empty()) {
        append(out, code_.compute);
        // Tile loads may write next to what setup prepared: keep MTE2 behind it.
        out.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Mte2, kOnceEvent));
        out.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Mte2, kOnceEvent));
    }
}

void DoubleBufferedStream::emitTile(std::uint64_t index, std::vector<Instruction>& out) {
    code_.clear();
    const std::uint32_t buffers = source_->buffers();
    const auto half = static_cast<std::uint32_t>(index % buffers);
    const auto event = static_cast<std::uint8_t>(half);
    const bool reuses = index >= buffers;  // this half was used by an earlier tile
    source_->tile(index, half, code_);
    out.push_back(Instruction::scalar(kScalarCyclesPerTile + code_.scalarCycles));
    if (source_->movesOnly()) {
        if (reuses) out.push_back(Instruction::waitFlag(Pipe::Mte3, Pipe::Mte2, event));
        append(out, code_.load);
        out.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::Mte3, event));
        out.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::Mte3, event));
        append(out, code_.store);
        out.push_back(Instruction::setFlag(Pipe::Mte3, Pipe::Mte2, event));
        return;
    }
    if (reuses) out.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Mte2, event));
    append(out, code_.load);
    out.push_back(Instruction::setFlag(Pipe::Mte2, Pipe::Vector, event));
    out.push_back(Instruction::waitFlag(Pipe::Mte2, Pipe::Vector, event));
    const bool freesInputsEarly = buffers == 1 && code_.stagedInputsCastAt != TileCode::kWholeCompute;
    const std::size_t castEnd = freesInputsEarly ? std::min(code_.stagedInputsCastAt, code_.compute.size()) : 0;
    if (freesInputsEarly) {  // the input casts run while the previous tile's store drains
        out.insert(out.end(), code_.compute.begin(), code_.compute.begin() + static_cast<std::ptrdiff_t>(castEnd));
        out.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Mte2, event));
    }
    if (reuses) out.push_back(Instruction::waitFlag(Pipe::Mte3, Pipe::Vector, event));
    out.insert(out.end(), code_.compute.begin() + static_cast<std::ptrdiff_t>(castEnd), code_.compute.end());
    if (!freesInputsEarly) out.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Mte2, event));
    out.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Mte3, event));
    out.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Mte3, event));
    append(out, code_.store);
    out.push_back(Instruction::setFlag(Pipe::Mte3, Pipe::Vector, event));
}

void DoubleBufferedStream::emitFinish(std::vector<Instruction>& out) {
    code_.clear();
    source_->finish(code_);
    out.push_back(Instruction::scalar(kScalarCyclesPerTile + code_.scalarCycles));
    // Consume the flags of the last (up to) `buffers` tiles.
    const std::uint64_t tiles = source_->tileCount(), buffers = source_->buffers();
    for (std::uint64_t t = tiles - std::min<std::uint64_t>(tiles, buffers); t < tiles; ++t) {
        const auto event = static_cast<std::uint8_t>(t % buffers);
        if (source_->movesOnly()) {
            out.push_back(Instruction::waitFlag(Pipe::Mte3, Pipe::Mte2, event));
            continue;
        }
        out.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Mte2, event));
        out.push_back(Instruction::waitFlag(Pipe::Mte3, Pipe::Vector, event));
    }
    if (code_.compute.empty() && code_.store.empty()) return;
    append(out, code_.compute);
    out.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Mte3, kOnceEvent));
    out.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Mte3, kOnceEvent));
    append(out, code_.store);
}

}  // namespace ascendsim
