#pragma once
// Small helpers to emit kernel programs (generic: cube and vector kernels both use them).
//
// ProgramBuilder appends instructions to a chunk with one short call each. PingPongBuffer is the
// double-buffering discipline of Ascend C's TQue with depth 2 (hardware.md §2.3): a producer pipe
// fills slot i while the consumer pipe drains slot i^1, with a "ready" flag producer→consumer and
// a "free" flag consumer→producer per slot. TiledInstructionStream yields a program lazily, one
// tile per next(), so memory stays flat however long the program is (DESIGN.md decision 2).
#include <cstdint>
#include <vector>

#include "models/isa/instruction.h"
#include "models/isa/instruction_stream.h"

namespace ascendsim {

class ProgramBuilder {
public:
    explicit ProgramBuilder(std::vector<Instruction>& out) : out_(out) {}

    // Scalar-unit work: address arithmetic and loop control, `cycles` long.
    ProgramBuilder& scalar(std::uint32_t cycles, std::uint16_t loads = 0, std::uint16_t stores = 0) {
        out_.push_back(Instruction::scalar(cycles, loads, stores));
        return *this;
    }
    ProgramBuilder& move(const DataMove& move) {
        out_.push_back(Instruction::move(move));
        return *this;
    }
    // `rows` bursts of `rowBytes`; strides are the distance between row starts on each side.
    ProgramBuilder& copy2d(MemSpace src, std::uint64_t srcAddr, MemSpace dst, std::uint64_t dstAddr,
                           std::uint32_t rows, std::uint32_t rowBytes, std::uint64_t srcStrideBytes,
                           std::uint64_t dstStrideBytes,
                           LayoutConversion conversion = LayoutConversion::None, const GmFractalNz& gmNz = {});
    ProgramBuilder& copy(MemSpace src, std::uint64_t srcAddr, MemSpace dst, std::uint64_t dstAddr,
                         std::uint32_t bytes) {
        return copy2d(src, srcAddr, dst, dstAddr, 1, bytes, bytes, bytes);
    }
    // The data move the previous call appended (move, copy2d, copy), to set an additive field of it;
    // throws std::logic_error if that instruction is not a data move.
    DataMove& lastDataMove();
    // The flag of the wait or set the previous call appended, to set an additive field of it;
    // throws std::logic_error if that instruction is not a flag wait or set.
    Flag& lastFlag();
    ProgramBuilder& img2col(const Img2ColLoad& load) {
        out_.push_back(Instruction::img2col(load));
        return *this;
    }
    ProgramBuilder& mmad(const Mmad& mmad) {
        out_.push_back(Instruction::mmad(mmad));
        return *this;
    }
    ProgramBuilder& vector(const VectorInstr& vector) {
        out_.push_back(Instruction::vector(vector));
        return *this;
    }
    ProgramBuilder& setFlag(Pipe src, Pipe dst, std::uint8_t eventId) {
        out_.push_back(Instruction::setFlag(src, dst, eventId));
        return *this;
    }
    ProgramBuilder& waitFlag(Pipe src, Pipe dst, std::uint8_t eventId) {
        out_.push_back(Instruction::waitFlag(src, dst, eventId));
        return *this;
    }
    // SetFlag in `src` then WaitFlag in `dst`: "dst may start once src finished what it has".
    ProgramBuilder& handoff(Pipe src, Pipe dst, std::uint8_t eventId) {
        return setFlag(src, dst, eventId).waitFlag(src, dst, eventId);
    }
    ProgramBuilder& barrier(Pipe pipe) {
        out_.push_back(Instruction::barrier(pipe));
        return *this;
    }
    ProgramBuilder& crossCoreSet(std::uint8_t flagId, std::uint8_t mode, Pipe executingPipe) {
        out_.push_back(Instruction::crossCoreSet(flagId, mode, executingPipe));
        return *this;
    }
    ProgramBuilder& crossCoreWait(std::uint8_t flagId, std::uint8_t mode) {
        out_.push_back(Instruction::crossCoreWait(flagId, mode));
        return *this;
    }
    // The wait of a KFC matmul server (the AIC of a MIX kernel) for its AIVs' request: a polling
    // loop on the scalar unit (CrossCoreFlag::polled).
    ProgramBuilder& pollCrossCore(std::uint8_t flagId, std::uint8_t mode) {
        out_.push_back(Instruction::crossCoreWait(flagId, mode, true));
        return *this;
    }

    std::vector<Instruction>& out() { return out_; }

private:
    std::vector<Instruction>& out_;
};

// `slots` equally sized regions of one local buffer, filled by `producer` and drained by
// `consumer`. Event ids firstEventId .. firstEventId+slots-1 are used in both directions.
// Protocol per use: acquire (producer waits until the slot is free) → fill → publish (ready) →
// consume (consumer waits) → drain → release (free; moves to the next slot). prime() at program
// start marks all slots free; drain() at the end consumes the free flags so none stays set.
class PingPongBuffer {
public:
    PingPongBuffer(std::uint64_t baseAddr, std::uint64_t slotBytes, Pipe producer, Pipe consumer,
                   std::uint8_t firstEventId, std::uint32_t slots = 2)
        : base_(baseAddr), slotBytes_(slotBytes), producer_(producer), consumer_(consumer),
          firstEventId_(firstEventId), slots_(slots) {}

    std::uint64_t address() const { return base_ + std::uint64_t{current_} * slotBytes_; }
    std::uint32_t slot() const { return current_; }
    std::uint8_t eventId() const { return static_cast<std::uint8_t>(firstEventId_ + current_); }

    void prime(ProgramBuilder& b) const {
        for (std::uint32_t s = 0; s < slots_; ++s)
            b.setFlag(consumer_, producer_, static_cast<std::uint8_t>(firstEventId_ + s));
    }
    void acquire(ProgramBuilder& b) const { b.waitFlag(consumer_, producer_, eventId()); }
    void publish(ProgramBuilder& b) const { b.setFlag(producer_, consumer_, eventId()); }
    void consume(ProgramBuilder& b) const { b.waitFlag(producer_, consumer_, eventId()); }
    void release(ProgramBuilder& b) {
        b.setFlag(consumer_, producer_, eventId());
        current_ = (current_ + 1) % slots_;
    }
    void drain(ProgramBuilder& b) const {
        for (std::uint32_t s = 0; s < slots_; ++s)
            b.waitFlag(consumer_, producer_, static_cast<std::uint8_t>(firstEventId_ + s));
    }

private:
    std::uint64_t base_;
    std::uint64_t slotBytes_;
    Pipe producer_;
    Pipe consumer_;
    std::uint8_t firstEventId_;
    std::uint32_t slots_;
    std::uint32_t current_ = 0;
};

// A program of prologue, `tileCount()` tiles and epilogue, produced one tile per next() (the
// prologue rides with the first chunk, the epilogue with the last).
class TiledInstructionStream : public InstructionStream {
public:
    bool next(std::vector<Instruction>& out) final;

protected:
    virtual std::uint64_t tileCount() const = 0;
    virtual void emitPrologue(ProgramBuilder&) {}
    virtual void emitTile(std::uint64_t tile, ProgramBuilder& b) = 0;
    virtual void emitEpilogue(ProgramBuilder&) {}

private:
    bool started_ = false;
    bool finished_ = false;
    std::uint64_t nextTile_ = 0;
};

}  // namespace ascendsim
