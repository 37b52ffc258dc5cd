#pragma once
#include <string_view>

namespace ascendsim {

// The simulator's own version, and the software versions whose output formats it reproduces by
// default (formats.md: CANN 8.3.RC1 / torch_npu 2.7.1 era).
std::string_view simulatorVersion();

}  // namespace ascendsim
