#include "sim/engine/version.h"

namespace ascendsim {

std::string_view simulatorVersion() { return ASCENDSIM_VERSION; }

}  // namespace ascendsim
