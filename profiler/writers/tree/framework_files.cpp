#include "profiler/writers/tree/framework_files.h"
#include "profiler/format/file_output.h"

#include <map>
#include <stdexcept>

#include "profiler/writers/tree/profiler_info.h"

namespace ascendsim {

namespace {

// TLV record type tags. torch_npu's decoder ignores the outer tag; these are the field tags it reads.
constexpr std::uint16_t kRecordTag = 1;
constexpr std::uint16_t kOpNameTag = 2, kInputTypeTag = 3, kInputDimsTag = 4, kCallStackTag = 8,
                        kModuleHierarchyTag = 9, kFlopsTag = 10;
constexpr std::uint16_t kMarkNameTag = 1;
constexpr std::uint16_t kHashValueTag = 1;
// torch.memory_usage device_type of an NPU (c10 DeviceType::PrivateUse1).
constexpr std::int8_t kNpuDeviceType = 20;
// op_mark categories.
constexpr std::uint64_t kEnqueueStart = 0, kEnqueueEnd = 1, kDequeueStart = 2, kDequeueEnd = 3;
// python tracer trace_tag: a call (function entry) and its return.
constexpr std::uint8_t kPythonCallTag = 0, kPythonReturnTag = 1;

class ByteWriter {
public:
    template <typename T>
    void put(T value) {
        for (std::size_t i = 0; i < sizeof(T); ++i)
            bytes_.push_back(static_cast<char>((static_cast<std::uint64_t>(value) >> (8 * i)) & 0xFF));
    }
    void putBytes(const std::string& s) { bytes_ += s; }
    void putField(std::uint16_t tag, const std::string& value) {
        put<std::uint16_t>(tag);
        put<std::uint32_t>(static_cast<std::uint32_t>(value.size()));
        putBytes(value);
    }
    const std::string& bytes() const { return bytes_; }

private:
    std::string bytes_;
};

void appendRecord(std::string& file, const std::string& record) {
    ByteWriter w;
    w.put<std::uint16_t>(kRecordTag);
    w.put<std::uint32_t>(static_cast<std::uint32_t>(record.size()));
    w.putBytes(record);
    file += w.bytes();
}

void writeFile(const std::filesystem::path& path, const std::string& bytes) {
    if (bytes.empty()) return;
    writeFileBytes(path, bytes);
}

}  // namespace

std::uint64_t pythonFunctionHashKey(const std::string& name) {
    std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a 64 offset basis
    for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ULL;
    return h;
}

std::string encodeOpRange(const RunRecord& run) {
    std::string file;
    for (const auto& op : run.hostOps) {
        ByteWriter w;
        w.put<std::int64_t>(static_cast<std::int64_t>(monotonicNs(op.startNs)));
        w.put<std::int64_t>(static_cast<std::int64_t>(monotonicNs(op.endNs)));
        w.put<std::int64_t>(op.sequenceNumber);
        w.put<std::uint64_t>(run.processId);
        w.put<std::uint64_t>(op.threadId);
        w.put<std::uint64_t>(op.threadId);
        w.put<std::uint64_t>(op.forwardThreadId);
        w.put<std::uint8_t>(0);  // scope: function
        w.put<std::uint8_t>(0);  // is_async
        w.putField(kOpNameTag, op.name);
        if (!op.inputTypes.empty()) w.putField(kInputTypeTag, op.inputTypes);
        if (!op.inputDims.empty()) w.putField(kInputDimsTag, op.inputDims);
        if (!op.callStack.empty()) w.putField(kCallStackTag, op.callStack);
        if (!op.moduleHierarchy.empty()) w.putField(kModuleHierarchyTag, op.moduleHierarchy);
        if (op.flops >= 0) w.putField(kFlopsTag, std::to_string(op.flops));
        appendRecord(file, w.bytes());
    }
    return file;
}

std::string encodeOpMark(const RunRecord& run) {
    std::string file;
    auto mark = [&](std::uint64_t simNs, std::uint64_t category, const TaskQueueRecord& q, std::uint32_t tid) {
        ByteWriter w;
        w.put<std::int64_t>(static_cast<std::int64_t>(monotonicNs(simNs)));
        w.put<std::uint64_t>(category);
        w.put<std::uint64_t>(q.correlationId);
        w.put<std::uint64_t>(tid);
        w.put<std::uint64_t>(run.processId);
        w.putField(kMarkNameTag, q.opName);
        appendRecord(file, w.bytes());
    };
    for (const auto& q : run.taskQueue) {
        mark(q.enqueueStartNs, kEnqueueStart, q, q.enqueueThreadId);
        mark(q.enqueueEndNs, kEnqueueEnd, q, q.enqueueThreadId);
    }
    for (const auto& q : run.taskQueue) {
        mark(q.dequeueStartNs, kDequeueStart, q, q.dequeueThreadId);
        mark(q.dequeueEndNs, kDequeueEnd, q, q.dequeueThreadId);
    }
    return file;
}

std::string encodeMemoryUsage(const RunRecord& run) {
    std::string file;
    for (const auto& e : run.memoryEvents) {
        ByteWriter w;
        w.put<std::int64_t>(static_cast<std::int64_t>(e.ptr));
        w.put<std::int64_t>(static_cast<std::int64_t>(monotonicNs(e.timeNs)));
        w.put<std::int64_t>(e.allocSize);
        w.put<std::int64_t>(e.totalAllocated);
        w.put<std::int64_t>(e.totalReserved);
        w.put<std::int64_t>(e.totalActive);
        w.put<std::int64_t>(static_cast<std::int64_t>(e.streamPtr));
        w.put<std::int8_t>(kNpuDeviceType);
        w.put<std::int8_t>(static_cast<std::int8_t>(run.deviceId));
        w.put<std::uint8_t>(static_cast<std::uint8_t>(e.component));
        w.put<std::uint8_t>(static_cast<std::uint8_t>(e.kind));
        w.put<std::uint8_t>(0);  // allocator_type: the caching allocator
        w.put<std::uint64_t>(e.threadId);
        w.put<std::uint64_t>(run.processId);
        appendRecord(file, w.bytes());
    }
    return file;
}

std::string encodePythonTracerFunc(const RunRecord& run) {
    ByteWriter w;
    auto record = [&](std::uint64_t simNs, const PythonCallRecord& c, std::uint8_t tag) {
        w.put<std::uint64_t>(monotonicNs(simNs));
        w.put<std::uint64_t>(c.threadId);
        w.put<std::uint64_t>(run.processId);
        w.put<std::uint64_t>(pythonFunctionHashKey(c.name));
        w.put<std::uint8_t>(tag);
    };
    // Entries and returns in time order, as the tracer observes them.
    std::multimap<std::uint64_t, std::pair<const PythonCallRecord*, std::uint8_t>> events;
    for (const auto& c : run.pythonCalls) {
        events.emplace(c.startNs, std::make_pair(&c, kPythonCallTag));
        events.emplace(c.endNs, std::make_pair(&c, kPythonReturnTag));
    }
    for (const auto& [t, e] : events) record(t, *e.first, e.second);
    return w.bytes();
}

std::string encodePythonTracerHash(const RunRecord& run) {
    std::string file;
    std::map<std::uint64_t, std::string> names;
    for (const auto& c : run.pythonCalls) names.emplace(pythonFunctionHashKey(c.name), c.name);
    for (const auto& [key, name] : names) {
        ByteWriter w;
        w.put<std::uint64_t>(key);
        w.putField(kHashValueTag, name);
        appendRecord(file, w.bytes());
    }
    return file;
}

void writeFrameworkFiles(const std::filesystem::path& frameworkDir, const RunRecord& run, const ProfilerConfig& config) {
    std::filesystem::create_directories(frameworkDir);
    writeFile(frameworkDir / "torch.op_range", encodeOpRange(run));
    writeFile(frameworkDir / "torch.op_mark", encodeOpMark(run));
    if (config.profileMemory) writeFile(frameworkDir / "torch.memory_usage", encodeMemoryUsage(run));
    if (config.withStack || config.withModules) {
        writeFile(frameworkDir / "torch.python_tracer_func", encodePythonTracerFunc(run));
        writeFile(frameworkDir / "torch.python_tracer_hash", encodePythonTracerHash(run));
    }
}

}  // namespace ascendsim
