#include "profiler/writers/db/db_cann_enums.h"

namespace ascendsim {

namespace {

struct EnumEntry {
    std::int64_t id;
    const char* name;
};

// HCCL enumerations end with the two ids msprof reserves for "no value" and "bad value".
constexpr std::int64_t kNotApplicable = 65534;
constexpr std::int64_t kInvalidType = 65535;

const std::vector<EnumEntry> kHcclDataTypes = {{0, "INT8"},
                                               {1, "INT16"},
                                               {2, "INT32"},
                                               {3, "FP16"},
                                               {4, "FP32"},
                                               {5, "INT64"},
                                               {6, "UINT64"},
                                               {7, "UINT8"},
                                               {8, "UINT16"},
                                               {9, "UINT32"},
                                               {10, "FP64"},
                                               {11, "BFP16"},
                                               {12, "INT128"},
                                               {kNotApplicable, "N/A"},
                                               {kInvalidType, "INVALID_TYPE"}};
const std::vector<EnumEntry> kHcclLinkTypes = {{0, "ON_CHIP"},
                                               {1, "HCCS"},
                                               {2, "PCIE"},
                                               {3, "ROCE"},
                                               {4, "SIO"},
                                               {5, "HCCS_SW"},
                                               {6, "STANDARD_ROCE"},
                                               {7, "RESERVED"},
                                               {kNotApplicable, "N/A"},
                                               {kInvalidType, "INVALID_TYPE"}};
const std::vector<EnumEntry> kHcclRdmaTypes = {
    {0, "RDMA_SEND_NOTIFY"},   {1, "RDMA_SEND_PAYLOAD"},      {2, "RDMA_PAYLOAD_PREPARE"},
    {3, "RDMA_PAYLOAD_CHECK"}, {4, "RDMA_PAYLOAD_ACK"},       {5, "RDMA_SEND_OP"},
    {kNotApplicable, "N/A"},   {kInvalidType, "INVALID_TYPE"}};
const std::vector<EnumEntry> kHcclTransportTypes = {{0, "SDMA"},
                                                    {1, "RDMA"},
                                                    {2, "LOCAL"},
                                                    {kNotApplicable, "N/A"},
                                                    {kInvalidType, "INVALID_TYPE"}};
const std::vector<EnumEntry> kMstxEventTypes = {
    {0, "marker"}, {1, "push/pop"}, {2, "start/end"}, {3, "marker_ex"}};

// Modules the 2024-era enumeration (c1e639ee) does not have yet.
bool missingIn2024(const std::string& module) {
    return module == "AMP" || module == "ADETECT";
}

void writeEnumTable(DbFile& db, const std::string& table,
                    const std::vector<std::vector<DbValue>>& rows) {
    db.execute("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY,name TEXT)");
    db.insertRows(table, rows);
}

void writeEnumTable(DbFile& db, const std::string& table, const std::vector<EnumEntry>& entries) {
    std::vector<std::vector<DbValue>> rows;
    for (const EnumEntry& e : entries) rows.push_back({e.id, std::string(e.name)});
    writeEnumTable(db, table, rows);
}

std::int64_t idIn(const std::vector<EnumEntry>& entries, const std::string& name) {
    for (const EnumEntry& e : entries)
        if (name == e.name) return e.id;
    return kInvalidType;
}

}  // namespace

std::int64_t hcclDataTypeId(const std::string& name) {
    return idIn(kHcclDataTypes, name);
}
std::string hcclDataTypeName(std::int64_t id) {
    for (const EnumEntry& e : kHcclDataTypes)
        if (e.id == id) return e.name;
    return "INVALID_TYPE";
}
std::int64_t hcclLinkTypeId(const std::string& name) {
    return idIn(kHcclLinkTypes, name);
}
std::int64_t hcclTransportTypeId(const std::string& name) {
    return idIn(kHcclTransportTypes, name);
}
std::int64_t hcclNoRdmaTypeId() {
    return kInvalidType;
}

void writeCannEnumTables(DbFile& db, FormatVersion version) {
    // ENUM_MODULE numbers the names in order, CUSTOM last (the 2024 list without AMP/ADETECT).
    std::vector<std::vector<DbValue>> modules;
    for (const std::string& name : cannModuleNames()) {
        if (predates2025(version) && missingIn2024(name)) continue;
        modules.push_back({static_cast<std::int64_t>(modules.size()), name});
    }
    modules.push_back({static_cast<std::int64_t>(modules.size()), std::string("CUSTOM")});
    writeEnumTable(db, "ENUM_MODULE", modules);
    writeEnumTable(db, "ENUM_MSTX_EVENT_TYPE", kMstxEventTypes);
    writeEnumTable(db, "ENUM_HCCL_DATA_TYPE", kHcclDataTypes);
    writeEnumTable(db, "ENUM_HCCL_LINK_TYPE", kHcclLinkTypes);
    writeEnumTable(db, "ENUM_HCCL_RDMA_TYPE", kHcclRdmaTypes);
    writeEnumTable(db, "ENUM_HCCL_TRANSPORT_TYPE", kHcclTransportTypes);
}

}  // namespace ascendsim
