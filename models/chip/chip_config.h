#pragma once
// A chip's parameters as plain data (DESIGN.md "Configuration"). Loaded and validated from
// configs/<SoC>.yaml by sim/config/chip_config_loader; every model reads it by const reference.
// Units are in the names. Sources for every value live beside it in the YAML file.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/isa/instruction.h"
#include "models/isa/pipe.h"

namespace ascendsim {

enum class CoreOrganisation : std::uint8_t { Split /*220x: AIC + 2 AIV*/, Coupled /*910A, 310P*/ };

// Measured single-core cost of one transfer on a path, as (bytes, cycles) points in ascending
// byte order; the timing model interpolates between points and extends past the last point at
// `peakBytesPerCycle`. Layout-converting transfers (ND2NZ, NZ2ND) use their own curve.
struct TransferCurve {
    std::vector<std::uint32_t> bytes;
    std::vector<double> cycles;
};

struct PathTiming {
    MemSpace src = MemSpace::GM;
    MemSpace dst = MemSpace::L1;
    TransferCurve curve;
    TransferCurve convertingCurve;  // may be empty: then curve × conversionSlowdown
    double conversionSlowdown = 1.0;
    double peakBytesPerCycle = 0.0;
    // Source bytes per cycle when the move changes the element type on the way (FixPipe's
    // fp32 -> fp16/bf16 quantisation of L0C results); 0 = the curve alone.
    double dtypeConversionBytesPerCycle = 0.0;
    // Cycles each burst after a move's first adds on top of its bytes' curve cost (a strided
    // UB → UB data_move of many small bursts on the vector pipe; the curves were measured with
    // one-burst moves); 0 = the curve alone.
    double burstCycles = 0.0;
    // Cycles each burst after the first adds on top of the curve cost in a move of several bursts
    // that are not whole 32 B blocks (Ascend C DataCopyPad: each burst padded to a block on its UB
    // side): such a move goes burst by burst, each one's data in flight behind the next one's
    // issue. Bursts of whole blocks stream as the curves' moves did (docs/fidelity.md §74).
    // 0 = the curve alone.
    double paddedBurstCycles = 0.0;
};

struct UbBanking {
    std::uint32_t bankGroups = 16;
    std::uint32_t banksPerGroup = 3;
    std::uint32_t bankBytes = 4096;
    std::uint32_t rowBytes = 32;  // one bank row = one 32 B block
};

// When a partly written L2 line is completed from HBM (l2.partial_line_fill).
enum class PartialLineFill : std::uint8_t { None, OnRead, OnReadOrEvict };

struct L2Config {
    std::uint64_t sizeBytes = 0;
    std::uint32_t lineBytes = 512;
    std::uint32_t ways = 16;
    double bandwidthBytesPerCycle = 0.0;  // chip aggregate, in AI core cycles
    std::uint32_t hitLatencyCycles = 0;
    // Write-back policy. 0: lazy — a written line stays dirty until evicted, and whoever evicts it
    // pays its HBM write. > 0: eager — every write is queued to HBM as it lands in L2 (the line
    // stays, clean once written), and a write waits only while more than this many bytes of
    // earlier writes are still queued for HBM (the dirty data L2 buffers for the controller).
    std::uint32_t writeBackQueueBytes = 0;
    // Reads of one line by several requests at once are served one after another, each holding
    // the line this long (models/memory/line_read_queue.h). 0: every read is served at once.
    std::uint32_t sameLineReadCycles = 0;
    // What L2 does with a line a write covers only in part and finds missing (models/memory/
    // partial_lines.h, docs/fidelity.md §92, §94, §103). None: the write allocates it as whole (no
    // fill, nothing owed). OnRead: it holds the write's bytes only, and the first read that needs
    // the line fills it from HBM (what a miss costs, without evicting). OnReadOrEvict: as OnRead,
    // and a partial line evicted before any read fills it is completed from HBM on its way out
    // (a write-back of whole lines only: the victim's other bytes are read, then the line written).
    PartialLineFill partialLineFill = PartialLineFill::None;
};

struct HbmConfig {
    std::uint64_t sizeBytes = 0;
    double bandwidthGBps = 0.0;  // chip aggregate, 1e9 bytes/s
    std::uint32_t readLatencyCycles = 0;
    std::uint32_t writeLatencyCycles = 0;
    // HBM stacks the profiler's sampled "HBM <n>" counters report; 0 for chips with LPDDR main
    // memory (310P3), which have no HBM counters.
    std::uint32_t stacks = 0;
    // Share of bandwidthGBps the DRAM delivers to streaming line fills (reads) and to
    // write-backs (writes) once the protocol's overheads are paid: row activations and
    // precharges of many interleaved streams, refresh, read/write bus turnaround. Writes are
    // buffered and drained in row order by the controller, so they lose less. 1 = nominal.
    double readEfficiency = 1.0;
    double writeEfficiency = 1.0;
    // Share reads get while no write is queued at HBM (no read/write bus turnaround, no write
    // drain between read bursts): a read-only stream. 0 = readEfficiency.
    double readOnlyEfficiency = 0.0;
    // What concurrent streams together get of HBM (GB/s) — a kernel and an HCCL collective's SDMA
    // copies beside it (docs/fidelity.md §108, §114) — where readEfficiency is what one stream
    // gets alone. 0 = bandwidthGBps × readEfficiency (one stream's rate is the chip's capacity).
    double concurrentCapacityGBps = 0.0;
    // L2 line fills one core may have in flight (Little's law): a read transfer's missed lines
    // arrive at most this many per read latency, so one core streams cold data at no more than
    // outstandingReadLinesPerCore × l2.lineBytes / readLatencyCycles B/cycle, however idle HBM
    // is. 0 = no per-core limit (only the HBM server bounds fills).
    std::uint32_t outstandingReadLinesPerCore = 0;
};

// Cube cost parameters (hardware.md §2.5). Named *Config so the timing model class CubeTiming
// (models/timing/transfer_timing.h) can keep its name in the same namespace.
struct CubeTimingConfig {
    std::uint32_t fractalM = 16, fractalK = 16, fractalN = 16;  // fp16 fractal
    std::uint32_t int8FractalK = 32;
    std::uint32_t mmadOverheadCycles = 2;
    std::uint32_t mmadMinCycles = 5;
    // Cycles per 16×8×16 fractal of a true-fp32 mmad (f32f32f32); hf32 (h322f32) runs one per
    // cycle like fp16's 16×16×16. A rate, not a whole number: the 910B2's measured rate lies
    // between 2 and 3 (docs/fidelity.md §147); an mmad takes ceil(fractals × this) cycles.
    double fp32CyclesPerFractal = 1.0;
};

struct VectorClassTiming {
    std::uint32_t cyclesPerRepeat = 1;
    std::uint32_t startupCycles = 3;
    // Cycles per repeat on 32-bit elements when they differ (hardware.md §2.6: fp32 vexp/vln run
    // at 128 B/cycle vs fp16 at 64); 0 = same as cyclesPerRepeat.
    std::uint32_t fp32CyclesPerRepeat = 0;
};

struct VectorTiming {
    std::array<VectorClassTiming, kVectorClassCount> byClass{};  // indexed by VectorClass
    std::uint32_t bytesPerRepeat = 256;
    // Cycles from a vector instruction leaving the pipe (its start-up and repeats issued) until its
    // results are in UB. Back-to-back vector instructions overlap it; a sync that consumes the
    // pipe's results (SetFlag from V, PipeBarrier<PIPE_V>, PIPE_ALL) waits for it. 0 = none.
    std::uint32_t resultLatencyCycles = 0;
};

struct ICacheConfig {
    std::uint32_t sizeBytes = 32768;
    std::uint32_t fillBytes = 2048;
    std::uint32_t missPenaltyCycles = 0;
    std::uint32_t bytesPerInstruction = 8;  // encoded size of one instruction
    // The code a block of a kernel runs through (prologue, tiling parse, loop bodies): fetched
    // at block start, and every later instruction lies in it (loops re-run it). 0 = a program's
    // instruction positions are its code addresses (straight-line, the older model).
    std::uint32_t kernelCodeBytes = 0;
    // The least a missed fill costs the block waiting for it: a lone block waits out the fill's
    // latency, blocks fetching together queue for the port (missPenaltyCycles a turn each), so a
    // missed fill costs max(fillLatencyCycles, blocks fetching x missPenaltyCycles). 0 = no floor.
    std::uint32_t fillLatencyCycles = 0;
};

struct AiCpuConfig {
    std::uint32_t count = 4;
    double freqMhz = 0.0;
    std::uint32_t launchOverheadCycles = 0;  // per task, in AI CPU cycles
};

// The links HCCL collectives use (hardware.md: HCCS inside a server, RoCE between servers).
// Zero linkBandwidthGBps: the chip has no collective model (a workload with ranks > 1 is
// rejected). Every transfer over a link takes latency + bytes / bandwidth (cluster_topology.h).
struct HcclLinkConfig {
    std::uint32_t npusPerServer = 0;      // chips joined by one server's HCCS mesh
    double linkBandwidthGBps = 0.0;       // one HCCS peer link, one direction, 1e9 B/s (SDMA Memcpy)
    double reduceBandwidthGBps = 0.0;     // SDMA inline reduce over a peer link
    double localCopyBandwidthGBps = 0.0;  // SDMA on-chip copy (input -> output buffer)
    double transferLatencyUs = 0.0;       // fixed cost of one SDMA transfer over a link
    double notifyRecordUs = 0.0;          // Notify_Record task
    double notifyWaitUs = 0.0;            // Notify_Wait task when the peer already signalled
    // Between servers: each NPU's own RoCE NIC through the cluster switch.
    double rdmaBandwidthGBps = 0.0;  // one NIC, one direction (RDMA write)
    double rdmaLatencyUs = 0.0;      // fixed cost of one RDMA transfer, NIC to NIC, minus the switch
    double switchLatencyUs = 0.0;    // one hop through the switch between two servers
    // Dual-die cards (Ascend910_9391): the two dies of a card talk over SIO, not HCCS.
    std::uint32_t diesPerCard = 1;  // 1: no SIO
    double sioBandwidthGBps = 0.0;  // one direction between the two dies of a card
};

struct ChipConfig {
    std::string name;        // "Ascend910B1"
    std::string sourceFile;  // where it was loaded from, for messages
    CoreOrganisation organisation = CoreOrganisation::Split;

    std::uint32_t aiCoreCount = 0;          // AIC (split) or coupled AI cores
    std::uint32_t vectorCoreCount = 0;      // AIV (split) or standalone vector cores (310P)
    std::uint32_t vectorCoresPerCube = 2;   // split organisation only
    double aiCoreFreqMhz = 0.0;
    double vectorCoreFreqMhz = 0.0;
    double hwtsFreqMhz = 100.0;             // system counter, as device info reports it

    // Buffer capacities (bytes) and required address alignment (bytes) per memory.
    std::array<std::uint64_t, kMemSpaceCount> bufferBytes{};
    std::array<std::uint32_t, kMemSpaceCount> alignmentBytes{};

    UbBanking ub;
    L2Config l2;
    HbmConfig hbm;
    CubeTimingConfig cube;
    VectorTiming vector;
    ICacheConfig icache;
    AiCpuConfig aiCpu;
    HcclLinkConfig hccl;
    std::vector<PathTiming> paths;

    std::array<std::uint32_t, kPipeCount> queueDepth{};  // per-pipe instruction queue depth
    std::uint32_t scalarIssueCycles = 1;       // scalar cycles to issue one instruction
    std::uint32_t flagLatencyCycles = 1;       // set_flag → wait_flag release
    // A mode-0 cross-core flag (SyncAll of every core of one kind) is counted by the task
    // scheduler's sync hardware, not passed core to core: the last set reaches it and the release
    // comes back to every waiting core this many cycles later, on top of flagLatencyCycles
    // (docs/fidelity.md §44).
    std::uint32_t allCoreSyncCycles = 0;
    std::uint32_t taskLaunchCycles = 0;        // scheduler: dispatch of a kernel's blocks
    std::uint32_t blockStartCycles = 0;        // per-block start-up on a core
    // The least MTE2 busy a block's counter shows, whatever its loads (docs/fidelity.md §134): a
    // block that loads little or nothing still counts this many MTE2 cycles; a block whose loads
    // keep MTE2 busy longer counts its loads alone (max, not a sum). Counting only: no time moves.
    // 0 = none.
    std::uint32_t blockMte2FloorCycles = 0;
    // From the task's start stamp to a block's first counted cycle: the scheduler hands the core
    // its kernel address, arguments and block index. In the task's Duration, not in the core's
    // total_cycles (docs/fidelity.md "Mechanisms").
    std::uint32_t blockDispatchCycles = 0;
    // The scheduler hands a task's blocks to cores one after another: block i starts no earlier
    // than i intervals after block 0 (in the task's Duration; docs/fidelity.md "Block stagger").
    std::uint32_t blockDispatchIntervalCycles = 0;
    // Scalar-unit work real kernels do around the instructions they issue (docs/chip-config.md):
    // address arithmetic and SPR/parameter writes before each instruction sent to a pipe or sync
    // instruction (set/wait flag, barrier), including its share of the loop control around it,
    // on vector (and coupled) cores and on the AIC of split chips, whose cube programs carry
    // the heavier Matmul iteration bookkeeping; and a block's prologue (kernel arguments and
    // tiling data read from GM through the DCache, the block's offsets). All of it occupies
    // the issue unit and counts scalar busy.
    std::uint32_t scalarCyclesPerInstruction = 0;
    std::uint32_t scalarCyclesPerInstructionAic = 0;
    std::uint32_t blockPrologueScalarCycles = 0;
    // Bytes every block of a launch first reads, by MTE2, from the launch's argument and tiling
    // record in GM (one record the launch's blocks share, so their reads meet on its L2 line and
    // take turns there: l2.sameLineReadCycles; docs/fidelity.md §58). The block's first issue
    // waits for it, overlapped with blockStartCycles and the prologue. 0 = no such read.
    std::uint32_t blockArgumentReadBytes = 0;
    // MTE2 keeps its GM loads in flight: it holds the pipe this many cycles per load (or while the
    // load's bytes pass at the path's peak, or until the memory has taken its requests) and issues
    // the next; the data, the flags set after it and the pipe's busy time end at the load's
    // completion (docs/fidelity.md §64). 0 = a GM load holds MTE2 until its data is in.
    std::uint32_t mte2LoadIssueCycles = 0;
    // Of a GM load's wait for lines that missed L2 beyond a hit's (hbm.read_latency_cycles less
    // l2.hit_latency_cycles), the cycles MTE2 does not hold the pipe for: the next load sends its
    // requests while this one's fill is on its way; the data, the flags set after it and MTE2's
    // busy time still end at the load's completion (docs/fidelity.md §123). A load that hits holds
    // the pipe to its data as before (§66). 0 = a load holds MTE2 until its data is in.
    std::uint32_t mte2MissWaitInFlightCycles = 0;
    // L2 line requests MTE2 keeps in flight on a GM read (models/timing/shared_line_requests.h,
    // docs/fidelity.md §111): a read whose lines R cores take turns on waits (R − 1) / 2 line turns
    // (l2.sameLineReadCycles) a request, this many requests overlapping. Only moves that carry a
    // reader count (CANN's MatMulV3 base kernel, §111; a one-m-tile GEMM's A, §119) wait. 0 = no wait.
    std::uint32_t mte2LineRequestsInFlight = 0;
    // Bytes a cycle a core that MTE2 moves on a GM read whose lines every block of the launch reads
    // at once, in the same order (models/timing/shared_line_requests.h, docs/fidelity.md §156): the
    // read costs at least its bytes at this rate. Only moves marked DataMove::linesReadByEveryBlock
    // (the split cube's fp32 forward convolution's weight chunks) are held to it. 0 = no limit.
    std::uint32_t mte2SharedLineReadBytesPerCycle = 0;
    // MTE3 keeps its stores to GM in flight, as MTE2 its loads: a store holds the pipe this many
    // cycles (or while its bytes pass at the path's peak, or until the memory has taken them: the
    // write queue's room) and MTE3 issues the next; the store's completion, the flags set after it
    // and the pipe's busy time end where the store's curve and the memory say (docs/fidelity.md
    // §79). 0 = a store holds MTE3 until it completes.
    std::uint32_t mte3StoreIssueCycles = 0;
    // A UB -> GM store's write acknowledgement: MTE3 is free once the store's data are posted (its
    // curve's end, or its issue with mte3StoreIssueCycles), and the write is done this many cycles
    // later, when the L2's acknowledgement is back at the core. The curves were measured back to back
    // (hardware.md §1.3), so a stream of stores overlaps these round trips; only a sync that waits for
    // the writes (a barrier, a cross-core set, the block's end) pays one (docs/fidelity.md §91).
    // 0 = a store is done at its curve's end.
    std::uint32_t mte3StoreAckCycles = 0;
    // A Load3D's (Img2ColLoad's) start on MTE1: set-up before its first write to L0, paid once an
    // instruction on top of its bytes (TransferTiming). CANN's cube cache tiling charges every
    // Load3D it models this cost (ops-nn cube/constants/constants_define.h k1971Mte1Load3dCost = 42,
    // cycle_calculator.cc GetMte1ACycle / GetMte1BCycle; docs/fidelity.md §151g). 0 = none.
    std::uint32_t mte1Load3dStartCycles = 0;

    std::uint64_t bufferCapacity(MemSpace m) const { return bufferBytes[static_cast<std::size_t>(m)]; }
    std::uint32_t alignment(MemSpace m) const { return alignmentBytes[static_cast<std::size_t>(m)]; }
    const PathTiming* findPath(MemSpace src, MemSpace dst) const {
        for (const auto& p : paths)
            if (p.src == src && p.dst == dst) return &p;
        return nullptr;
    }
};

}  // namespace ascendsim
