#include "models/kernels/reduction/workspace_rebase.h"

#include <memory>
#include <variant>

namespace ascendsim {

namespace {

class RebasingStream final : public InstructionStream {
public:
    RebasingStream(std::unique_ptr<InstructionStream> inner, std::uint64_t bytes, std::uint64_t workspaceAddr)
        : inner_(std::move(inner)), bytes_(bytes), workspaceAddr_(workspaceAddr) {}

    bool next(std::vector<Instruction>& out) override {
        const std::size_t first = out.size();
        if (!inner_->next(out)) return false;
        for (std::size_t i = first; i < out.size(); ++i) {
            auto* move = std::get_if<DataMove>(&out[i].operands);
            if (!move) continue;
            if (move->src == MemSpace::GM) rebase(move->srcAddr);
            if (move->dst == MemSpace::GM) rebase(move->dstAddr);
        }
        return true;
    }

private:
    void rebase(std::uint64_t& addr) const {
        if (addr >= kWorkspacePlaceholder && addr < kWorkspacePlaceholder + bytes_)
            addr = addr - kWorkspacePlaceholder + workspaceAddr_;
    }

    std::unique_ptr<InstructionStream> inner_;
    std::uint64_t bytes_, workspaceAddr_;
};

}  // namespace

LoweredKernel rebasedOntoWorkspace(LoweredKernel kernel, std::uint64_t bytes) {
    kernel.workspaceBytes = bytes;
    kernel.program = [inner = std::move(kernel.program), bytes](const BlockProgramRequest& request)
        -> std::unique_ptr<InstructionStream> {
        return std::make_unique<RebasingStream>(inner(request), bytes, request.workspaceAddr);
    };
    return kernel;
}

}  // namespace ascendsim
