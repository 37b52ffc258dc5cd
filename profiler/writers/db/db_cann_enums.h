#pragma once
// The fixed enumeration tables msprof writes into every DB (formats.md §5.1): ENUM_MODULE (CANN
// module ids, the moduleId of NPU_MODULE_MEM), ENUM_MSTX_EVENT_TYPE and the four ENUM_HCCL_*
// tables. Their contents are enumerations of the tool, copied from the real DBs (e5a31957 for
// 8.0/8.3, c1e639ee for the 2024 era, whose module list is two entries shorter).
#include <cstdint>
#include <string>
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/record/cann_modules.h"
#include "profiler/writers/db/db_sqlite.h"

namespace ascendsim {

// Creates and fills ENUM_MODULE, ENUM_MSTX_EVENT_TYPE and
// ENUM_HCCL_{DATA,LINK,RDMA,TRANSPORT}_TYPE.
void writeCannEnumTables(DbFile& db, FormatVersion version);

// Ids of those tables for a name as the HCCL trace spells it ("FP32", "HCCS", "SDMA"); unknown
// names get INVALID_TYPE (65535), as HCCL's own "INVALID_TYPE" does.
std::int64_t hcclDataTypeId(const std::string& name);
std::int64_t hcclLinkTypeId(const std::string& name);
std::int64_t hcclTransportTypeId(const std::string& name);
std::int64_t hcclNoRdmaTypeId();
// The HCCL trace's name of a data type id ("FP32"); INVALID_TYPE for an unknown id.
std::string hcclDataTypeName(std::int64_t id);  // SDMA tasks have no RDMA type

}  // namespace ascendsim
