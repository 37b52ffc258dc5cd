#include "models/isa/pipe.h"

namespace ascendsim {

std::string_view pipeName(Pipe p) {
    static constexpr std::array<std::string_view, 8> kNames = {
        "PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_FIX", "PIPE_ALL"};
    return kNames[static_cast<std::size_t>(p)];
}

std::string_view memSpaceName(MemSpace m) {
    static constexpr std::array<std::string_view, kMemSpaceCount> kNames = {
        "GM", "L1", "L0A", "L0B", "L0C", "UB", "BT", "FB"};
    return kNames[static_cast<std::size_t>(m)];
}

std::string pathName(MemSpace src, MemSpace dst) {
    std::string name(memSpaceName(src));
    name += "->";
    name += memSpaceName(dst);
    return name;
}

Pipe pipeForPath(MemSpace src, MemSpace dst) {
    using M = MemSpace;
    if (src == M::GM) {
        return (dst == M::L1 || dst == M::L0A || dst == M::L0B || dst == M::UB) ? Pipe::Mte2
                                                                                  : Pipe::All;
    }
    if (src == M::L1) {
        switch (dst) {
            case M::L0A:
            case M::L0B:
            case M::BiasTable:
            case M::UB:  // coupled architecture only
                return Pipe::Mte1;
            case M::FixpipeBuffer:
                return Pipe::FixPipe;
            case M::GM:
                return Pipe::Mte3;
            default:
                return Pipe::All;
        }
    }
    if (src == M::L0C) {
        if (dst == M::GM || dst == M::L1) return Pipe::FixPipe;
        if (dst == M::UB) return Pipe::Vector;  // coupled architecture only
        return Pipe::All;
    }
    if (src == M::UB) {
        if (dst == M::GM || dst == M::L1) return Pipe::Mte3;
        if (dst == M::UB) return Pipe::Vector;
        return Pipe::All;
    }
    return Pipe::All;
}

}  // namespace ascendsim
