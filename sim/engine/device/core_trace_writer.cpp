#include "sim/engine/device/core_trace_writer.h"
#include "profiler/format/file_output.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <iomanip>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "profiler/writers/json/json_text.h"

namespace ascendsim {

namespace {

// Pipes top to bottom in the order data flows through a core: scalar issue, loads, cube,
// write-back, vector, stores.
constexpr std::array<Pipe, kPipeCount> kPipeOrder = {Pipe::Scalar, Pipe::Mte2,   Pipe::Mte1, Pipe::Cube,
                                                      Pipe::FixPipe, Pipe::Vector, Pipe::Mte3};

std::size_t rowOf(Pipe pipe) {
    return static_cast<std::size_t>(std::find(kPipeOrder.begin(), kPipeOrder.end(), pipe) - kPipeOrder.begin());
}

const char* pipeRole(Pipe pipe) {
    switch (pipe) {
        case Pipe::Scalar: return "scalar unit: issue, address arithmetic, scalar flags";
        case Pipe::Mte2: return "MTE2: GM -> L1 / L0A / L0B / UB";
        case Pipe::Mte1: return "MTE1: L1 -> L0A / L0B";
        case Pipe::Cube: return "cube: mmad";
        case Pipe::FixPipe: return "FixPipe: L0C -> GM / L1";
        case Pipe::Vector: return "vector: UB compute";
        case Pipe::Mte3: return "MTE3: UB -> GM / L1";
        case Pipe::All: break;
    }
    return "";
}

const char* coreKindLabel(CoreKind kind) {
    switch (kind) {
        case CoreKind::Cube: return "AIC";
        case CoreKind::Vector: return "AIV";
        case CoreKind::Coupled: return "AI Core";
    }
    return "";
}

std::string shortPipe(Pipe pipe) {
    std::string name(pipeName(pipe));
    return name.substr(name.find('_') + 1);  // "PIPE_MTE2" -> "MTE2"
}

std::string hexAddress(std::uint64_t address) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
    return text;
}

std::string flagName(const char* verb, const Flag& flag) {
    return std::string(verb) + " " + shortPipe(flag.src) + "->" + shortPipe(flag.dst) + " #" +
           std::to_string(int{flag.eventId});
}

// The event name (what the timeline shows on the bar) and the instruction's operands as args.
std::string describe(const Instruction& instr, OrderedJson& args) {
    switch (instr.opcode) {
        case Opcode::DataMove: {
            const DataMove& m = std::get<DataMove>(instr.operands);
            args["bytes"] = m.totalBytes();
            args["bursts"] = m.burstCount;
            args["burst_bytes"] = m.burstBytes;
            if (m.srcGapBytes != 0) args["src_gap_bytes"] = m.srcGapBytes;
            if (m.dstGapBytes != 0) args["dst_gap_bytes"] = m.dstGapBytes;
            args["src"] = hexAddress(m.srcAddr);
            args["dst"] = hexAddress(m.dstAddr);
            if (m.conversion != LayoutConversion::None)
                args["layout"] = m.conversion == LayoutConversion::Nd2Nz ? "ND2NZ" : "NZ2ND";
            if (m.srcType != m.dstType)
                args["convert"] = std::string(dataTypeName(m.srcType)) + "->" + std::string(dataTypeName(m.dstType));
            if (m.reluOnTheFly) args["relu"] = true;
            if (m.atomicAdd) args["atomic_add"] = true;
            if (m.indexed()) args["indexed"] = true;
            return pathName(m.src, m.dst);
        }
        case Opcode::Img2Col: {
            const Img2ColLoad& l = std::get<Img2ColLoad>(instr.operands);
            args["m"] = l.m;
            args["k"] = l.k;
            args["bytes"] = l.totalBytes();
            args["input"] = std::to_string(l.channels) + "x" + std::to_string(l.inH) + "x" + std::to_string(l.inW);
            args["kernel"] = std::to_string(l.kernelH) + "x" + std::to_string(l.kernelW);
            args["stride"] = std::to_string(l.strideH) + "x" + std::to_string(l.strideW);
            return "Load3D " + pathName(MemSpace::L1, l.dst);
        }
        case Opcode::Mmad: {
            const Mmad& m = std::get<Mmad>(instr.operands);
            args["m"] = m.m;
            args["k"] = m.k;
            args["n"] = m.n;
            args["dtype"] = std::string(dataTypeName(m.dtype));
            args["accumulate"] = !m.initialize;
            return "Mmad " + std::to_string(m.m) + "x" + std::to_string(m.k) + "x" + std::to_string(m.n);
        }
        case Opcode::Vector: {
            const VectorInstr& v = std::get<VectorInstr>(instr.operands);
            args["dtype"] = std::string(dataTypeName(v.dtype));
            if (v.op == VectorOp::Cast) args["from"] = std::string(dataTypeName(v.srcType));
            args["repeats"] = v.repeats;
            args["mask"] = v.mask;
            args["dst"] = hexAddress(v.dst);
            args["src0"] = hexAddress(v.src0);
            args["src1"] = hexAddress(v.src1);
            args["block_strides"] = std::to_string(v.dstBlockStride) + "/" + std::to_string(v.src0BlockStride) + "/" +
                                    std::to_string(v.src1BlockStride);
            args["repeat_strides"] = std::to_string(v.dstRepeatStride) + "/" + std::to_string(v.src0RepeatStride) +
                                     "/" + std::to_string(v.src1RepeatStride);
            return vectorOpName(v.op);
        }
        case Opcode::Scalar: {
            const ScalarWork& w = std::get<ScalarWork>(instr.operands);
            args["loads"] = w.loads;
            args["stores"] = w.stores;
            return "scalar";
        }
        case Opcode::SetFlag: return flagName("set_flag", std::get<Flag>(instr.operands));
        case Opcode::WaitFlag: return flagName("wait_flag", std::get<Flag>(instr.operands));
        case Opcode::Barrier: return "pipe_barrier(" + std::string(pipeName(std::get<Barrier>(instr.operands).pipe)) + ")";
        case Opcode::CrossCoreSet:
        case Opcode::CrossCoreWait: {
            const CrossCoreFlag& f = std::get<CrossCoreFlag>(instr.operands);
            args["mode"] = f.mode;
            return std::string(instr.opcode == Opcode::CrossCoreSet ? "CrossCoreSetFlag" : "CrossCoreWaitFlag") +
                   " #" + std::to_string(int{f.flagId});
        }
    }
    return "?";
}

// A wait is named by the instruction it waits in (wait_flag, a PIPE_ALL barrier, a cross-core
// wait); an issue stall by the full queue, with the instruction that could not be issued in args.
std::string spanName(const TraceSpan& span, OrderedJson& args) {
    std::string name = describe(span.instruction, args);
    if (span.kind != TraceSpanKind::IssueStall) return name;
    args["next"] = name;
    return std::string(pipeName(span.stalledOn)) + " queue full";
}

using CoreKey = std::tuple<CoreKind, std::uint32_t>;

double microseconds(std::uint64_t ps, std::uint64_t originPs) {
    return ps >= originPs ? static_cast<double>(ps - originPs) / 1e6 : -static_cast<double>(originPs - ps) / 1e6;
}

std::vector<const TraceSpan*> sortedSpans(const CoreTrace& trace) {
    std::vector<const TraceSpan*> spans;
    spans.reserve(trace.spans.size());
    for (const TraceSpan& span : trace.spans) spans.push_back(&span);
    std::stable_sort(spans.begin(), spans.end(), [](const TraceSpan* a, const TraceSpan* b) {
        return std::make_tuple(a->coreKind, a->coreId, rowOf(a->pipe), a->startPs, a->programIndex) <
               std::make_tuple(b->coreKind, b->coreId, rowOf(b->pipe), b->startPs, b->programIndex);
    });
    return spans;
}

}  // namespace

std::string renderCoreTraceJson(const CoreTrace& trace) {
    const std::vector<const TraceSpan*> spans = sortedSpans(trace);
    // Cores in kind and id order get consecutive pids; each lists the blocks it ran.
    std::map<CoreKey, std::set<std::pair<std::uint32_t, std::uint32_t>>> blocksOfCore;
    std::map<CoreKey, std::set<Pipe>> pipesOfCore;
    for (const TraceSpan* span : spans) {
        blocksOfCore[{span->coreKind, span->coreId}].insert({span->blockIdx, span->subBlockIdx});
        pipesOfCore[{span->coreKind, span->coreId}].insert(span->pipe);
    }
    std::map<CoreKey, int> pidOf;
    for (const auto& [core, blocks] : blocksOfCore) pidOf.emplace(core, static_cast<int>(pidOf.size()) + 1);

    const std::uint64_t originPs = trace.startNs * 1000;
    OrderedJson events = OrderedJson::array();
    for (const auto& [core, blocks] : blocksOfCore) {
        const auto [kind, coreId] = core;
        std::string label = std::string(coreKindLabel(kind)) + " " + std::to_string(coreId) + " (block";
        if (blocks.size() > 1) label += "s";
        bool first = true;
        for (const auto& [block, sub] : blocks) {
            label += first ? " " : ", ";
            label += std::to_string(block);
            if (kind == CoreKind::Vector && (trace.type == TaskType::MixAic || trace.type == TaskType::MixAiv)) {
                label += '.';
                label += std::to_string(sub);
            }
            first = false;
        }
        label += ")";
        const int pid = pidOf.at(core);
        events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", label}}}});
        events.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", pid}, {"args", {{"sort_index", pid}}}});
        for (Pipe pipe : pipesOfCore.at(core)) {
            const auto tid = static_cast<int>(rowOf(pipe));
            events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", tid},
                              {"args", {{"name", std::string(pipeName(pipe)) + " (" + pipeRole(pipe) + ")"}}}});
            events.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", pid}, {"tid", tid},
                              {"args", {{"sort_index", tid}}}});
        }
    }
    for (const TraceSpan* span : spans) {
        OrderedJson args = OrderedJson::object();
        args["instruction"] = span->programIndex;
        args["cycles"] = span->cycles;
        const std::string name = spanName(*span, args);
        const char* category = span->kind == TraceSpanKind::Execute    ? "execute"
                               : span->kind == TraceSpanKind::WaitFlag ? "wait"
                                                                       : "issue_stall";
        events.push_back({{"name", name},
                          {"cat", category},
                          {"ph", "X"},
                          {"pid", pidOf.at({span->coreKind, span->coreId})},
                          {"tid", static_cast<int>(rowOf(span->pipe))},
                          {"ts", microseconds(span->startPs, originPs)},
                          {"dur", microseconds(span->endPs, span->startPs)},
                          {"args", std::move(args)}});
    }
    const OrderedJson otherData = {{"op", trace.opName},
                             {"op_type", trace.opType},
                             {"kernel", trace.kernelName},
                             {"task_type", std::string(taskTypeName(trace.type))},
                             {"block_dim", trace.blockDim},
                             {"mix_block_dim", trace.mixBlockDim},
                             {"step", trace.stepNumber},
                             {"device_task_id", trace.taskId},
                             {"duration_us", static_cast<double>(trace.endNs - trace.startNs) / 1e3}};
    // One event per line: a traced conv has tens of thousands; indenting them triples the file.
    std::string text = "{\"traceEvents\":[\n";
    for (std::size_t i = 0; i < events.size(); ++i) {
        text += events[i].dump();
        text += i + 1 < events.size() ? ",\n" : "\n";
    }
    text += "],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":";
    text += otherData.dump();
    text += "}\n";
    return text;
}

void writeCoreTraceFile(const std::string& path, const CoreTrace& trace) {
    writeFileBytes(path, renderCoreTraceJson(trace));
}

void writeCoreTraceSummary(const CoreTrace& trace, std::ostream& out) {
    struct PipeFigures {
        std::uint64_t instructions = 0, busyPs = 0, waitPs = 0, stallPs = 0;
    };
    std::map<std::pair<CoreKind, std::size_t>, PipeFigures> figures;
    std::map<CoreKind, std::set<std::uint32_t>> coresOfKind;
    for (const TraceSpan& span : trace.spans) {
        coresOfKind[span.coreKind].insert(span.coreId);
        PipeFigures& f = figures[{span.coreKind, rowOf(span.pipe)}];
        const std::uint64_t ps = span.endPs - span.startPs;
        switch (span.kind) {
            case TraceSpanKind::Execute: ++f.instructions; f.busyPs += ps; break;
            case TraceSpanKind::WaitFlag: f.waitPs += ps; break;
            case TraceSpanKind::IssueStall: f.stallPs += ps; break;
        }
    }
    const double durationPs = static_cast<double>(trace.endNs - trace.startNs) * 1000.0;
    out << "core trace: " << trace.opName << " (" << trace.kernelName << ", " << taskTypeName(trace.type)
        << ", block dim " << trace.blockDim;
    if (trace.mixBlockDim != 0) out << ", mix block dim " << trace.mixBlockDim;
    out << ") in step " << trace.stepNumber << ": " << std::fixed << std::setprecision(3)
        << static_cast<double>(trace.endNs - trace.startNs) / 1e3 << " us\n";
    out << "  share of the kernel's duration, averaged over the cores that ran it\n";
    out << "  " << std::left << std::setw(12) << "cores" << std::setw(11) << "pipe" << std::right << std::setw(14)
        << "instructions" << std::setw(9) << "busy %" << std::setw(9) << "wait %" << std::setw(15)
        << "queue full %\n";
    for (const auto& [key, f] : figures) {
        const auto& [kind, row] = key;
        const double coreTime = durationPs * static_cast<double>(coresOfKind[kind].size());
        auto share = [&](std::uint64_t ps) { return coreTime > 0 ? 100.0 * static_cast<double>(ps) / coreTime : 0.0; };
        out << "  " << std::left << std::setw(12)
            << (std::to_string(coresOfKind[kind].size()) + " " + coreKindLabel(kind)) << std::setw(11)
            << pipeName(kPipeOrder[row]) << std::right << std::setw(14) << f.instructions << std::setw(9)
            << std::setprecision(1) << share(f.busyPs) << std::setw(9) << share(f.waitPs) << std::setw(14)
            << share(f.stallPs) << "\n";
    }
    // Where the data went: bytes per path (source side) and the rate each path sustained over
    // the kernel, summed over cores.
    std::map<std::string, std::uint64_t> bytesByPath;
    for (const TraceSpan& span : trace.spans) {
        if (span.kind != TraceSpanKind::Execute) continue;
        if (span.instruction.opcode == Opcode::DataMove) {
            const DataMove& m = std::get<DataMove>(span.instruction.operands);
            bytesByPath[pathName(m.src, m.dst)] += m.totalBytes();
        } else if (span.instruction.opcode == Opcode::Img2Col) {
            const Img2ColLoad& l = std::get<Img2ColLoad>(span.instruction.operands);
            bytesByPath[pathName(MemSpace::L1, l.dst) + " (Load3D)"] += l.totalBytes();
        }
    }
    if (bytesByPath.empty()) return;
    out << "  data moved (all cores)";
    const double durationS = durationPs / 1e12;
    for (const auto& [name, bytes] : bytesByPath) {
        out << "\n    " << std::left << std::setw(20) << name << std::right << std::setw(12) << std::setprecision(3)
            << static_cast<double>(bytes) / (1024.0 * 1024.0) << " MiB";
        if (durationS > 0)
            out << std::setw(10) << std::setprecision(1) << static_cast<double>(bytes) / durationS / 1e9 << " GB/s";
    }
    out << "\n";
}

}  // namespace ascendsim
