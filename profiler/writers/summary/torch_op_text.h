#pragma once
// How torch_npu's TorchOpBean rewrites the text fields of a torch op (formats.md §3.5): every ';'
// in Input Dims, Input type and Call stack becomes ";\r\n". trace_view args, operator_details
// cells and the DB's STRING_IDS all carry this form.
#include <string>

namespace ascendsim {

std::string torchOpBeanText(const std::string& text);

}  // namespace ascendsim
