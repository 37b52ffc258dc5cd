// Fuzz target: the workload expression evaluator (sim/workload/expression.cpp). The first line
// is a parameter `p`'s text, the rest the expression; only ExpressionError may come out.
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_support.h"
#include "sim/workload/expression.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const std::size_t nl = bytes.find('\n');
    ascendsim::ParameterValues params;
    std::string_view expr = bytes;
    if (nl != std::string_view::npos) {
        params["p"] = std::string(bytes.substr(0, nl));
        params["q"] = "$p";
        expr = bytes.substr(nl + 1);
    }
    try {
        ascendsim::evaluateInteger(std::string(expr), params);
    } catch (const ascendsim::ExpressionError&) {
    }
    try {
        ascendsim::resolveParameterText(std::string(expr), params);
    } catch (const ascendsim::ExpressionError&) {
    }
    return 0;
}
