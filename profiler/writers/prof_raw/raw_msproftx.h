#pragma once
// The mstx markers as CANN's raw MsprofTx data: host/data/unaging.additional.msproftx.slice_0,
// one 256-byte MsprofAdditionalInfo per marker segment (Ascend/msprof prof_common.h: 24-byte header
// at level MSPROF_REPORT_TX_LEVEL 20500, type MSPROF_REPORT_TX_BASE_TYPE 0, then an MsprofTxInfo:
// infoType 1 (MarkEx, the mstx API), a segment index, and an MsprofStampInfo with process and
// thread id, category 0, eventType (3 marker_ex, 2 start/end), payload 0, start and end in host
// system counts, mark id, the domain's hash id (hash_dic), message type 0 and the message).
// msprof's parser (msparser/msproftx/msproftx_parser.py, format "HH3IQ2HI2H4Ii5Qi156s") reads the
// message up to its first NUL and joins the segments of one mark id in segment order, so a message
// longer than 155 bytes is split into 155-byte segments.
//
// Assumed (no public source): the stamp's magic number 0x5A5A, dataTag 0, header dataLen 232 (the
// MsprofTxInfo size) and header timestamp = the marker's start.
#include <string>

#include "profiler/record/run_record.h"
#include "profiler/writers/prof_raw/raw_type_dictionary.h"

namespace ascendsim {

// The file's bytes; empty without markers.
std::string rawMsprofTxRecords(const RunRecord& run, RawTypeDictionary& dict);

}  // namespace ascendsim
