#include "profiler/report/html/chart_library.h"

#ifdef ASCENDSIM_CHARTJS_PATH
// The assembler copies the file's bytes into read-only data; the two labels bound them.
asm(".section .rodata\n"
    ".global ascendsim_chartjs_begin\n"
    "ascendsim_chartjs_begin:\n"
    ".incbin \"" ASCENDSIM_CHARTJS_PATH "\"\n"
    ".global ascendsim_chartjs_end\n"
    "ascendsim_chartjs_end:\n"
    ".previous\n");
extern "C" const char ascendsim_chartjs_begin[];
extern "C" const char ascendsim_chartjs_end[];
#endif

namespace ascendsim {

bool chartLibraryAvailable() { return !chartLibrarySource().empty(); }

std::string_view chartLibrarySource() {
#ifdef ASCENDSIM_CHARTJS_PATH
    return {ascendsim_chartjs_begin, static_cast<std::size_t>(ascendsim_chartjs_end - ascendsim_chartjs_begin)};
#else
    return {};
#endif
}

}  // namespace ascendsim
