#include "models/core/program_prefetcher.h"

#include <utility>

namespace ascendsim {

namespace {

// A part's program as the worker left it: the generated prefix first, then the generator where
// the worker stopped, then the generator's exception if it threw.
class PrefetchedStream final : public InstructionStream {
public:
    PrefetchedStream(std::vector<Instruction> prefix, std::unique_ptr<InstructionStream> generator, bool ended,
                     std::exception_ptr error)
        : prefix_(std::move(prefix)), generator_(std::move(generator)), ended_(ended), error_(std::move(error)) {}

    bool next(std::vector<Instruction>& out) override {
        if (!prefix_.empty()) {
            if (out.empty())
                out.swap(prefix_);  // the core's first fetch of a block: no copy
            else
                out.insert(out.end(), prefix_.begin(), prefix_.end());
            prefix_.clear();
            return true;
        }
        if (error_) std::rethrow_exception(error_);
        if (ended_) return false;
        return generator_->next(out);
    }

private:
    std::vector<Instruction> prefix_;
    std::unique_ptr<InstructionStream> generator_;
    bool ended_;
    std::exception_ptr error_;
};

}  // namespace

ProgramPrefetcher::ProgramPrefetcher() : worker_([this] { work(); }) {}

ProgramPrefetcher::~ProgramPrefetcher() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    worker_.join();
}

void ProgramPrefetcher::enqueue(std::uint64_t taskId, const ProgramFactory& factory,
                                const BlockProgramRequest& request) {
    const PartKey key = keyOf(taskId, request);
    {
        std::lock_guard lock(mutex_);
        const auto [it, inserted] = parts_.try_emplace(key);
        if (!inserted) return;  // queued already (a task is queued once; tolerate repeats)
        it->second.factory = factory;
        it->second.request = request;
        queue_.push_back(key);
    }
    changed_.notify_all();
}

std::unique_ptr<InstructionStream> ProgramPrefetcher::take(std::uint64_t taskId, const ProgramFactory& factory,
                                                           const BlockProgramRequest& request) {
    std::unique_lock lock(mutex_);
    const auto it = parts_.find(keyOf(taskId, request));
    if (it == parts_.end()) {
        lock.unlock();
        return factory(request);
    }
    changed_.wait(lock, [&] { return it->second.state != PartState::Generating; });
    Part part = std::move(it->second);
    parts_.erase(it);  // a queued key left in queue_ is skipped by the worker
    if (part.state == PartState::Queued) {
        lock.unlock();
        return factory(request);
    }
    buffered_ -= part.prefix.size();
    lock.unlock();
    changed_.notify_all();  // budget freed
    return std::make_unique<PrefetchedStream>(std::move(part.prefix), std::move(part.generator), part.ended,
                                              std::move(part.error));
}

std::size_t ProgramPrefetcher::bufferedInstructions() const {
    std::lock_guard lock(mutex_);
    return buffered_;
}

void ProgramPrefetcher::work() {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return stopping_ || (!queue_.empty() && buffered_ < kBudgetInstructions); });
        if (stopping_) return;
        const PartKey key = queue_.front();
        queue_.pop_front();
        const auto it = parts_.find(key);
        if (it == parts_.end() || it->second.state != PartState::Queued) continue;  // taken meanwhile
        Part& part = it->second;  // std::map nodes stay put while other parts come and go
        part.state = PartState::Generating;
        lock.unlock();
        generate(part);
        lock.lock();
        part.state = PartState::Generated;
        buffered_ += part.prefix.size();
        changed_.notify_all();
    }
}

void ProgramPrefetcher::generate(Part& part) {
    try {
        part.generator = part.factory(part.request);
        while (part.prefix.size() < kPrefixInstructions) {
            if (!part.generator->next(part.prefix)) {
                part.ended = true;
                break;
            }
        }
    } catch (...) {
        part.error = std::current_exception();
    }
}

}  // namespace ascendsim
