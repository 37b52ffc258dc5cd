#include "sim/replay/input/real_profile_loader.h"

#include "profiler/report/profile_comparison.h"
#include "sim/replay/input/argmax_mask_cells.h"
#include "sim/replay/input/autograd_links.h"
#include "sim/replay/input/dropout_mask_owner.h"
#include "sim/replay/input/hccl_transfer_reader.h"
#include "sim/replay/input/kernel_details_reader.h"
#include "sim/replay/input/memset_owner.h"
#include "sim/replay/input/profiler_db_reader.h"

namespace ascendsim {

namespace {

namespace fs = std::filesystem;

std::optional<fs::path> profilerDb(const fs::path& outputDir) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(outputDir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("ascend_pytorch_profiler") && name.ends_with(".db")) return entry.path();
    }
    return std::nullopt;
}

// What both exports leave out or record wrongly, completed from the profile's other rows: the
// tensors a MemSet zeroes and a dropout mask's owner, and the argmax mask a max pool's backward reads.
void completeRecordedCells(std::vector<RealKernel>& kernels) {
    attributeMemSetTensors(kernels);
    attributeDropoutMaskTensors(kernels);
    restoreArgmaxMaskCells(kernels);
}

}  // namespace

bool parseProfileSource(std::string_view text, ProfileSource& out) {
    if (text == "auto") return out = ProfileSource::Auto, true;
    if (text == "text") return out = ProfileSource::Text, true;
    if (text == "db") return out = ProfileSource::Db, true;
    return false;
}

RealProfile loadRealProfile(const fs::path& dir, ProfileSource source) {
    fs::path outputDir;
    try {
        outputDir = findProfilerOutputFolder(dir);
    } catch (const std::runtime_error& e) {
        throw ReplayInputError(std::string(e.what()) + " (not a torch_npu profile)");
    }
    const fs::path csv = outputDir / "kernel_details.csv";
    const bool hasCsv = fs::is_regular_file(csv);
    const std::optional<fs::path> db = profilerDb(outputDir);
    if (source == ProfileSource::Text || (source == ProfileSource::Auto && hasCsv)) {
        if (!hasCsv) throw ReplayInputError(outputDir.string() + ": no kernel_details.csv (text export)");
        RealProfile profile = readKernelDetailsCsv(csv);
        profile.hcclTransfers = readTraceViewTransfers(csv);
        readAutogradLinks(csv, profile.kernels);
        completeRecordedCells(profile.kernels);
        return profile;
    }
    if (!db) {
        throw ReplayInputError(outputDir.string() + (source == ProfileSource::Db
                                                         ? ": no ascend_pytorch_profiler_*.db (DB export)"
                                                         : ": neither kernel_details.csv nor ascend_pytorch_profiler_*.db"));
    }
    RealProfile profile = readProfilerDb(*db);
    completeRecordedCells(profile.kernels);
    return profile;
}

}  // namespace ascendsim
