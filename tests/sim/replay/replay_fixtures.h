#pragma once
// Small real-format profiles written by the tests: kernel_details.csv rows in the CANN 8.3 layout
// (47 columns, triple-quoted shapes, TAB-suffixed start times, LF) and the 2024 910A layout (36
// columns, CRLF), and a DB export built with sqlite3. Values follow the reference samples'
// patterns: cycles = core time × 1650 MHz × blocks for the 8.3 chip, × 1000 MHz on the 910A.
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/scratch_dir.h"

namespace ascendsim::replay_fixtures {

namespace fs = std::filesystem;

inline const char* kHeader83 =
    "Step Id,Device_id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),"
    "Duration(us),Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,"
    "Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID,aicore_time(us),aic_total_cycles,"
    "aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),aic_scalar_ratio,aic_mte1_time(us),aic_mte1_ratio,"
    "aic_mte2_time(us),aic_mte2_ratio,aic_fixpipe_time(us),aic_fixpipe_ratio,aic_icache_miss_rate,aiv_time(us),"
    "aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_time(us),aiv_scalar_ratio,aiv_mte2_time(us),"
    "aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,aiv_icache_miss_rate,cube_utilization(%)\n";

inline const char* kAivZeroAic = "0.0,0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,";

// A MatMul with B transposed (x·Wᵀ), two occurrences of one Add, a type the catalog lacks, and an
// all-reduce on the communication stream.
inline std::string kernelDetails83() {
    std::string text = kHeader83;
    text += "13,0,4294967295,100,2,aclnnMatmul_MatMulV3Common_MatMulV3,MatMulV3,dynamic,AI_CORE,"
            "1764246877080000.000\t,20.080,0,20,0,NO,\"\"\"256,512;256,512\"\"\",DT_BF16;DT_BF16,ND;ND,"
            "\"\"\"256,256\"\"\",DT_BF16,ND,N/A,19.0,627000,10.0,0.526,8.0,0.421,5.0,0.263,6.0,0.316,4.0,0.211,"
            "0.001,0.0,0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,20.000\n";
    for (const char* duration : {"5.220", "7.220"}) {
        text += std::string("13,0,4294967295,101,2,aclnnAdd_AddAiCore_Add,Add,dynamic,AI_VECTOR_CORE,"
                            "1764246877080100.000\t,") +
                duration +
                ",1.000000,40,0,NO,\"\"\"64,1024;64,1024\"\"\",DT_BF16;DT_BF16,NCL;NCL,\"\"\"64,1024\"\"\","
                "DT_BF16,ND,N/A," +
                kAivZeroAic + "4.0,264000,1.0,0.25,0.4,0.1,3.0,0.75,2.0,0.5,0.01,0.000\n";
    }
    text += std::string("13,0,4294967295,102,2,aclnnScatterNd_ScatterNdUpdate_ScatterNdUpdate,ScatterNdUpdate,dynamic,AI_VECTOR_CORE,"
                        "1764246877080200.000\t,60.000,2.000000,40,0,NO,\"\"\"64,2048\"\"\",DT_BF16,ND,"
                        "\"\"\"64,1024\"\"\",DT_BF16,ND,N/A,") +
            kAivZeroAic + "50.0,3300000,10.0,0.2,5.0,0.1,40.0,0.8,20.0,0.4,0.01,0.000\n";
    text += "13,0,4294967295,N/A,N/A,hcom_allReduce__1_0_1,hcom_allReduce_,N/A,COMMUNICATION,"
            "1764246877080300.000\t,500.000,1.000000,0,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,"
            "N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A\n";
    return text;
}

// The 2024 910A layout: unprefixed PMU columns, no Mix Block Dim, CRLF rows.
inline std::string kernelDetails2024() {
    return "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),"
           "Wait Time(us),Block Dim,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,"
           "Output Data Types,Output Formats,aicore_time(us),total_cycles,vec_time(us),vec_ratio,mac_time(us),"
           "mac_ratio,scalar_time(us),scalar_ratio,mte1_time(us),mte1_ratio,mte2_time(us),mte2_ratio,"
           "mte3_time(us),mte3_ratio,icache_miss_rate,memory_bound,cube_utilization(%)\r\n"
           "50,4294967295,44017,1,trans_Cast_10,Cast,dynamic,AI_CORE,1727593954640599.301\t,39.15,0,32,NO,"
           "\"\"\"32,3,224,224\"\"\",FLOAT,NCHW,\"\"\"32,3,224,224\"\"\",FLOAT16,NCHW,37.63,1204160,2.64,0.07,0.0,"
           "0.0,0.237,0.006,0.0,0.0,33.913,0.901,27.22,0.723,0.033,12.871,0\r\n"
           "50,4294967295,44018,1,Add29,Add,dynamic,AI_CORE,1727593954640699.301\t,5.22,1.0,32,NO,"
           "\"\"\"32,4096;4096\"\"\",FLOAT;FLOAT,FORMAT_ND;FORMAT_ND,\"\"\"32,4096\"\"\",FLOAT,FORMAT_ND,4.0,128000,"
           "1.0,0.25,0.0,0.0,0.5,0.125,0.0,0.0,3.0,0.75,2.0,0.5,0.01,3.0,0\r\n"
           "50,4294967295,N/A,N/A,hcom_allReduce__538_0_1,hcom_allReduce_,N/A,HCCL,1727593954650726.162\t,"
           "53398.483,305.753,0,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,"
           "N/A,N/A,N/A,N/A,N/A\r\n";
}

inline void writeText(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

// <root>/<name>_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv holding `text`; returns the
// *_ascend_pt directory.
inline fs::path textProfile(const fs::path& root, const std::string& name, const std::string& text) {
    const fs::path dir = root / (name + "_ascend_pt");
    writeText(dir / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv", text);
    return dir;
}

inline void exec(sqlite3* db, const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string message = error ? error : "?";
        sqlite3_free(error);
        throw std::runtime_error(message);
    }
}

// A DB export (CANN 8.0 era: no profiler_info versions): two occurrences of one Add with PMU data,
// a MatMul without, one all-reduce in COMMUNICATION_OP, NPU_INFO "Ascend910B".
inline fs::path dbProfile(const fs::path& root, const std::string& name) {
    const fs::path dir = root / (name + "_ascend_pt");
    fs::create_directories(dir / "ASCEND_PROFILER_OUTPUT");
    sqlite3* db = nullptr;
    sqlite3_open((dir / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_0.db").c_str(), &db);
    exec(db,
         "CREATE TABLE NPU_INFO (id INTEGER,name TEXT);"
         "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);"
         "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim INTEGER,"
         "mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes INTEGER,"
         "inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes INTEGER,attrInfo INTEGER);"
         "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,globalTaskId INTEGER,"
         "globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,taskId INTEGER,modelId INTEGER);"
         "CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER,name INTEGER,value NUMERIC);"
         "CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs INTEGER,endNs INTEGER,connectionId INTEGER,"
         "groupName INTEGER,opId INTEGER PRIMARY KEY,relay INTEGER,retry INTEGER,dataType INTEGER,algType INTEGER,"
         "count NUMERIC,opType INTEGER);"
         "INSERT INTO NPU_INFO VALUES (0,'Ascend910B');"
         "INSERT INTO STRING_IDS VALUES (1,'aclnnAdd_AddAiCore_Add'),(2,'Add'),(3,'AI_VECTOR_CORE'),(4,'ND;ND'),"
         "(5,'FLOAT;FLOAT'),(6,'\"64,1024;64,1024\"'),(7,'ND'),(8,'FLOAT'),(9,'\"64,1024\"'),(10,'N/A'),"
         "(11,'aic_total_cycles'),(12,'aiv_total_cycles'),(13,'aiv_total_time'),(14,'aiv_vec_ratio'),"
         "(15,'MatMul1'),(16,'MatMulV2'),(17,'AI_CORE'),(18,'\"64,128;128,256\"'),(19,'\"64,256\"'),(20,'aic_mac_ratio');"
         "INSERT INTO COMPUTE_TASK_INFO VALUES (1,1,40,0,3,2,4,5,6,7,8,9,10),(1,2,40,0,3,2,4,5,6,7,8,9,10),"
         "(15,3,24,0,17,16,4,5,18,7,8,19,10);"
         "INSERT INTO TASK VALUES (1000000,1035000,0,1,1,7,1,4294967295,2,11,4294967295),"
         "(2000000,2037000,0,2,2,7,1,4294967295,2,12,4294967295),(3000000,3010000,0,3,3,7,1,4294967295,2,13,4294967295);"
         "INSERT INTO TASK_PMU_INFO VALUES (1,12,2376000),(1,13,33000),(1,14,0.2),(1,11,0),(1,20,0),"
         "(2,12,2376000),(2,13,33000),(2,14,0.4),(2,20,0.3);"
         "INSERT INTO COMMUNICATION_OP VALUES (0,5000000,5500000,0,0,1,0,0,0,0,1,0);");
    sqlite3_close(db);
    return dir;
}

// The DB export `dbProfile` made in a scratch folder tagged `tag`, with `sql` run on it (the tables
// a test adds to the fixture's); returns the profile directory.
inline fs::path dbProfileWith(const std::string& tag, const std::string& sql) {
    const fs::path dir = dbProfile(testing_scratch::scratchDir(tag), "r");
    sqlite3* db = nullptr;
    sqlite3_open((dir / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_0.db").c_str(), &db);
    exec(db, sql);
    sqlite3_close(db);
    return dir;
}

}  // namespace ascendsim::replay_fixtures
