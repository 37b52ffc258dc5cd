#pragma once
// One pipe's in-order instruction queue of finite depth (DESIGN.md decision 2): a ring buffer
// allocated once per core, so issuing and retiring never touch the heap. A slot names its
// instruction by program position (the core keeps the fetched program until the slot retires), so
// the queues of 72 cores stay small enough for the host caches.
#include <cstdint>
#include <vector>


namespace ascendsim {

struct QueuedInstruction {
    std::uint64_t readyCycle = 0;    // the issue unit has delivered it by this cycle
    std::uint64_t programIndex = 0;  // position in the block's program
};

class PipeQueue {
public:
    void reset(std::uint32_t depth) {
        slots_.resize(depth == 0 ? 1 : depth);
        head_ = 0;
        count_ = 0;
    }
    bool empty() const { return count_ == 0; }
    bool full() const { return count_ == slots_.size(); }
    std::size_t size() const { return count_; }
    std::size_t capacity() const { return slots_.size(); }
    // Position of the front slot, and of the last pushed one, in [0, capacity()): lets a caller
    // keep side data for a few queued instructions in an array of the same size.
    std::size_t frontPosition() const { return head_; }
    std::size_t backPosition() const {
        const std::size_t back = head_ + count_ - 1;
        return back >= slots_.size() ? back - slots_.size() : back;
    }
    QueuedInstruction& front() { return slots_[head_]; }
    const QueuedInstruction& front() const { return slots_[head_]; }
    QueuedInstruction& pushSlot() {
        std::size_t tail = head_ + count_;
        if (tail >= slots_.size()) tail -= slots_.size();
        ++count_;
        return slots_[tail];
    }
    void pop() {
        if (++head_ == slots_.size()) head_ = 0;
        --count_;
    }
    void clear() {
        head_ = 0;
        count_ = 0;
    }

private:
    std::vector<QueuedInstruction> slots_;
    std::size_t head_ = 0;
    std::size_t count_ = 0;
};

}  // namespace ascendsim
