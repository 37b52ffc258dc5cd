#pragma once
// PMU events of the AI Core (hardware.md §3.4). Each model increments the events it causes; the
// profiler turns counts into metrics with the real tools' formulas (hardware.md §3.2, §3.3).
// Events without a hardware ID (id 0) are simulator-side byte counters that the MemoryAccess
// group and msOpProf-style reports need.
#include <array>
#include <cstdint>
#include <string_view>

namespace ascendsim {

// X(enumerator, hardware id, name, bytes per count (0 = a cycle or event count), description)
#define ASCENDSIM_PMU_EVENTS(X)                                                                  \
    X(VecBusy, 0x8, "vec_busy", 0, "cycles the vector pipe executes an instruction")             \
    X(ScalarBusy, 0x9, "scalar", 0, "cycles the scalar unit executes its own work")              \
    X(MacBusy, 0xa, "mac", 0, "cycles the cube pipe executes mmad")                             \
    X(Mte1Busy, 0xb, "mte1", 0, "cycles MTE1 moves data (excluding flag waits)")               \
    X(Mte2Busy, 0xc, "mte2", 0, "cycles MTE2 moves data")                                      \
    X(Mte3Busy, 0xd, "mte3", 0, "cycles MTE3 moves data")                                      \
    X(L2Read, 0xf, "l2_read", 256, "L2 read accesses in 256-byte units")                       \
    X(L2Write, 0x10, "l2_write", 256, "L2 write accesses in 256-byte units")                   \
    X(MainMemRead, 0x12, "main_mem_read", 8, "HBM reads (L2 misses) in 8-byte units")          \
    X(MainMemWrite, 0x13, "main_mem_write", 8, "HBM writes in 8-byte units")                   \
    X(UbRead, 0x15, "ub_read", 128, "UB reads by any master in 128-byte units")               \
    X(UbWrite, 0x16, "ub_write", 128, "UB writes by any master in 128-byte units")            \
    X(L0aRead, 0x1b, "l0a_read", 512, "L0A reads in 512-byte units")                          \
    X(L0aWrite, 0x1c, "l0a_write", 512, "L0A writes in 512-byte units")                       \
    X(L0bRead, 0x21, "l0b_read", 256, "L0B reads in 256-byte units")                          \
    X(L0bWrite, 0x22, "l0b_write", 256, "L0B writes in 256-byte units")                       \
    X(L0cRead, 0x27, "l0c_read", 256, "L0C reads by the vector/fixpipe side in 256 B units")  \
    X(L0cReadCube, 0x28, "l0c_read_cube", 256, "L0C reads by the cube in 256 B units")         \
    X(L0cWrite, 0x29, "l0c_write", 256, "L0C writes by the vector side in 256 B units")       \
    X(L0cWriteCube, 0x2a, "l0c_write_cube", 256, "L0C writes by the cube in 256 B units")     \
    X(L1Read, 0x31, "l1_read", 512, "L1 reads in 512-byte units")                             \
    X(L1Write, 0x32, "l1_write", 256, "L1 writes in 256-byte units")                          \
    X(UbReadScalar, 0x37, "ub_read_scalar", 16, "UB reads by the scalar unit, 16 B units")     \
    X(UbWriteScalar, 0x38, "ub_write_scalar", 16, "UB writes by the scalar unit, 16 B units")  \
    X(ScalarLoad, 0x3a, "scalar_ld", 0, "scalar load instructions")                           \
    X(ScalarStore, 0x3b, "scalar_st", 0, "scalar store instructions")                         \
    X(UbReadMte, 0x3d, "ub_read_mte", 16, "UB reads by MTEs in 16-byte units")                \
    X(UbWriteMte, 0x3e, "ub_write_mte", 16, "UB writes by MTEs in 16-byte units")             \
    X(UbReadVector, 0x43, "ub_read_vector", 32, "UB reads by the vector pipe, 32 B units")     \
    X(UbWriteVector, 0x44, "ub_write_vector", 32, "UB writes by the vector pipe, 32 B units")  \
    X(MacFp16, 0x49, "mac_fp16", 0, "cube cycles computing a float fractal")                  \
    X(MacInt8, 0x4a, "mac_int8", 0, "cube cycles computing an int8 fractal")                  \
    X(VecFp32, 0x4b, "vec_fp32", 0, "vector cycles on fp32 data")                             \
    X(VecFp16_128Lane, 0x4c, "vec_fp16_128lane", 0, "vector cycles on fp16 at 128 lanes")     \
    X(VecFp16_64Lane, 0x4d, "vec_fp16_64lane", 0, "vector cycles on fp16 at 64 lanes")        \
    X(VecInt32, 0x4e, "vec_int32", 0, "vector cycles on int32 data")                          \
    X(VecMisc, 0x4f, "vec_misc", 0, "vector cycles on other data types")                      \
    X(IcacheReq, 0x54, "icache_req", 0, "instruction cache requests")                         \
    X(IcacheMiss, 0x55, "icache_miss", 0, "instruction cache misses (2 KiB fills)")           \
    X(WaitFlagScalar, 0x57, "waitflag_scalar", 0, "scalar cycles blocked in wait_flag")       \
    X(WaitFlagCube, 0x58, "waitflag_cube", 0, "cube cycles blocked in wait_flag")             \
    X(WaitFlagVector, 0x59, "waitflag_vector", 0, "vector cycles blocked in wait_flag")       \
    X(WaitFlagMte1, 0x5a, "waitflag_mte1", 0, "MTE1 cycles blocked in wait_flag")             \
    X(WaitFlagMte2, 0x5b, "waitflag_mte2", 0, "MTE2 cycles blocked in wait_flag")             \
    X(WaitFlagMte3, 0x5c, "waitflag_mte3", 0, "MTE3 cycles blocked in wait_flag")             \
    X(VecBankGroupConflict, 0x64, "vec_bankgroup_cflt", 0, "vector stall cycles, bank group") \
    X(VecBankConflict, 0x65, "vec_bank_cflt", 0, "vector stall cycles, same bank r/w")        \
    X(VecResourceConflict, 0x66, "vec_resc_cflt", 0, "vector stall cycles, UB port shared")   \
    X(Mte1QueueFull, 0x6b, "mte1_iq_full", 0, "cycles issue stalled on a full MTE1 queue")    \
    X(Mte2QueueFull, 0x6c, "mte2_iq_full", 0, "cycles issue stalled on a full MTE2 queue")    \
    X(Mte3QueueFull, 0x6d, "mte3_iq_full", 0, "cycles issue stalled on a full MTE3 queue")    \
    X(CubeQueueFull, 0x6e, "cube_iq_full", 0, "cycles issue stalled on a full cube queue")    \
    X(VecQueueFull, 0x6f, "vec_iq_full", 0, "cycles issue stalled on a full vector queue")    \
    X(VecExe, 0x12c, "vec_exe", 0, "vector instructions executed")                            \
    X(Mte1BusyExtra, 0x302, "mte1_extra", 0, "910B MTE1 busy cycles")                         \
    X(FixpipeBusy, 0x303, "fixpipe", 0, "cycles the FixPipe moves data")                      \
    X(MacFp, 0x416, "mac_fp", 0, "910B cube cycles on float fractals")                        \
    X(MacInt, 0x417, "mac_int", 0, "910B cube cycles on integer fractals")                    \
    X(L2WriteHit, 0x500, "write_cache_hit", 0, "L2 write hits (lines)")                       \
    X(L2WriteMissAllocate, 0x502, "write_cache_miss_allocate", 0, "L2 write misses (lines)")  \
    X(L2R0ReadHit, 0x504, "r0_read_cache_hit", 0, "L2 read hits on read port 0 (lines)")      \
    X(L2R0ReadMissAllocate, 0x506, "r0_read_cache_miss_allocate", 0, "L2 read misses, port 0") \
    X(L2R1ReadHit, 0x508, "r1_read_cache_hit", 0, "L2 read hits on read port 1 (lines)")      \
    X(L2R1ReadMissAllocate, 0x50a, "r1_read_cache_miss_allocate", 0, "L2 read misses, port 1") \
    X(WaitFlagFixpipe, 0, "waitflag_fixpipe", 0, "FixPipe cycles blocked in wait_flag")       \
    X(BytesGmToL1, 0, "GM_to_L1_datas", 1, "bytes moved GM to L1")                            \
    X(BytesGmToL0, 0, "GM_to_L0_datas", 1, "bytes moved GM to L0A/L0B")                       \
    X(BytesL1ToL0, 0, "L1_to_L0_datas", 1, "bytes moved L1 to L0A/L0B")                       \
    X(BytesL0cToL1, 0, "L0C_to_L1_datas", 1, "bytes moved L0C to L1")                         \
    X(BytesL0cToGm, 0, "L0C_to_GM_datas", 1, "bytes moved L0C to GM")                         \
    X(BytesGmToUb, 0, "GM_to_UB_datas", 1, "bytes moved GM to UB")                            \
    X(BytesUbToGm, 0, "UB_to_GM_datas", 1, "bytes moved UB to GM")                            \
    X(BytesMainMemRead, 0, "read_main_memory_datas", 1, "bytes read from GM")                 \
    X(BytesMainMemWrite, 0, "write_main_memory_datas", 1, "bytes written to GM")              \
    X(CubeFlops, 0, "cube_flops", 0, "floating/integer operations done by the cube")          \
    X(VectorOps, 0, "vector_ops", 0, "element operations done by the vector pipe")

enum class PmuEvent : std::uint16_t {
#define ASCENDSIM_PMU_ENUM(e, id, name, bytes, desc) e,
    ASCENDSIM_PMU_EVENTS(ASCENDSIM_PMU_ENUM)
#undef ASCENDSIM_PMU_ENUM
        Count
};
inline constexpr std::size_t kPmuEventCount = static_cast<std::size_t>(PmuEvent::Count);

struct PmuEventInfo {
    std::uint16_t hardwareId;  // 0 for simulator-side counters
    std::string_view name;
    std::uint32_t bytesPerCount;  // 0: counts cycles or events
    std::string_view description;
};

const PmuEventInfo& pmuEventInfo(PmuEvent e);

// One core's (or one task's, summed) PMU counters plus its total-cycle counter.
struct PmuCounters {
    std::uint64_t totalCycles = 0;
    std::array<std::uint64_t, kPmuEventCount> counts{};

    std::uint64_t& operator[](PmuEvent e) { return counts[static_cast<std::size_t>(e)]; }
    std::uint64_t operator[](PmuEvent e) const { return counts[static_cast<std::size_t>(e)]; }
    PmuCounters& operator+=(const PmuCounters& other);
};

}  // namespace ascendsim
