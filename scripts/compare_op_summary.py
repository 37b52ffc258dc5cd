#!/usr/bin/env python3
"""Compares the PMU columns of two op_summary CSVs row by row: every column from the first metric
column (aicore_time(us), or the first aic_/aiv_ one) to the last, as the 910B (aic_*, aiv_*) and
the 910A (mac_ratio, ..., no prefix) print them.

Usage: compare_op_summary.py MSPROF_OP_SUMMARY ASCENDSIM_OP_SUMMARY
The first is what the open-source msprof analysis exported from ascendsim's raw data
(scripts/check_with_msprof_export.sh), the second ascendsim's own export of the same collection.
Rows pair by (Task ID, Stream ID); numbers agree within 1e-3 relative, time columns also within
0.005 µs plus that: msprof rounds a side's total time to two decimals and derives the pipe times
from the rounded value (common_func/utils.py Utils.cal_total_time). Exit 0 when every PMU
cell agrees and the first file has PMU columns, 1 otherwise.
"""
import csv
import sys


def rows(path):
    with open(path, newline='') as f:
        return list(csv.DictReader(f))


def main(theirs_path, ours_path):
    theirs, ours = rows(theirs_path), rows(ours_path)
    key = lambda r: (r['Task ID'].strip(), r['Stream ID'].strip())
    by_key = {key(r): r for r in ours}
    header = list(theirs[0]) if theirs else []
    first = next((i for i, c in enumerate(header) if c.startswith(('aic_', 'aiv_', 'aicore_'))), len(header))
    columns = header[first:]
    if not columns:
        print('  no PMU columns in', theirs_path)
        return 1
    cells = mismatches = 0
    for r in theirs:
        o = by_key.get(key(r))
        if o is None:
            print('  no ascendsim row for task/stream', key(r))
            mismatches += 1
            continue
        for c in columns:
            a, b = r[c].strip(), o.get(c, '').strip()
            cells += 1
            try:
                rounding = 0.005 if 'time' in c else 0.0
                same = abs(float(a) - float(b)) <= rounding + 1e-3 * max(1.0, abs(float(b)))
            except ValueError:
                same = a == b
            if not same:
                print('  %s %s: msprof %s, ascendsim %s' % (r['Op Name'], c, a, b))
                mismatches += 1
    print('  op_summary PMU columns: %d cells compared, %d differ (%s)' % (cells, mismatches, ', '.join(columns)))
    return 1 if mismatches else 0


if __name__ == '__main__':
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
