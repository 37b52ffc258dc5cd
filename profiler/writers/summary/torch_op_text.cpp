#include "profiler/writers/summary/torch_op_text.h"

namespace ascendsim {

std::string torchOpBeanText(const std::string& text) {
    std::string out;
    for (char c : text) {
        out += c;
        if (c == ';') out += "\r\n";
    }
    return out;
}

}  // namespace ascendsim
