#pragma once
// The charting library the HTML reports inline: Debian's libjs-chart.js (chart.min.js), embedded
// into the binary at build time (profiler/CMakeLists.txt finds it; scripts/install_deps.sh
// installs it). Nothing is fetched at run time and the reports name no CDN.
#include <string_view>

namespace ascendsim {

bool chartLibraryAvailable();
std::string_view chartLibrarySource();  // empty when the build found no libjs-chart.js

}  // namespace ascendsim
