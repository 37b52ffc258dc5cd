#pragma once
// The L2 lines that hold only the bytes writes put in them, and when L2 completes them from HBM
// (l2.partial_line_fill, docs/fidelity.md §92, §94, §103).
//
// A write that misses L2 and covers a 512 B line only in part allocates the line with its own
// bytes and no fill: the writer is not slowed (§92: a fill at the write is what the chip does not
// charge its partial-line writers). The line stays partial — later writes of its other bytes do
// not make it whole, only a write covering it whole does (§94b: the line rule, not a 32 B one) —
// until whichever comes first:
// - a read needs it: L2 fills it from HBM before it serves the read, which costs the reader what a
//   miss costs, without evicting (the line is allocated). The AlexNet 910B2 readers of the
//   NC1HWC0 -> NCHW TransData's planar rows (676 B / 2916 B / 12100 B bursts, written burst by
//   burst) read at 14-20 / 28-31 / 35-37 B per cycle a core with no L2 victims, against 50-79 B
//   per cycle for data written in whole lines (§94a);
// - it is evicted (PartialLineFill::OnReadOrEvict): L2 writes back whole lines only, so it reads
//   the line's other bytes from HBM first — a line of HBM read the evicting access pays beside the
//   write-back. A write-back with a byte mask (OnRead) needs none.
// A read that asks a partial line only for bytes the write that allocated it put there (one
// contiguous piece of it) is served as a hit and leaves the line partial (§129): the 910B2's
// one-block kernels read a small tensor the kernel before wrote into part of a line in an L2 hit's
// MTE2 time, not a fill's (e5a31957 text rank0: Cast [32] 281 cycles real, 680 with the fill, 354
// without; Equal [5,32] 469 real, 1140 -> 600). The line rule stands for a read that wants more
// than that piece (§94's planar-row readers).
// Pieces written into one line join (§138f, §167): a single-range write (one burst, or bursts back
// to back) into a partial line L2 holds adds its bytes to the pieces the line is known to hold,
// whichever core writes it, and a read that wants only bytes of one joined piece is a hit; pieces
// that cover the line make it whole. The AlexNet 910B2 bias gradients are written so — ReduceSum
// [32,C,HW] -> [C] on 43 cores, 24 B a core, one write each — and the one-block Muls that read them
// back read at a hit's MTE2 time on the chip (e5a31957 text rank0: Mul [4096] x 0-d 0.257 real,
// 0.382 with the fill, 0.251 without); so are a core's successive row stores (MaxPoolWithArgmaxV1's
// NC1HWC0 y, 1728 / 832 / 384 B a row), and the TransData that reads y back reads at a whole line's
// MTE2 time on the chip (MTE2 0.150 / 0.124 / 0.040 real; 0.251 / 0.204 / 0.180 with the fills,
// 0.144 / 0.071 / 0.036 without). A strided write's pieces do not join (FRACTAL_Z -> NCHW
// TransData, 288 B every 9216 B): those lines keep their fills, which the weight TensorMoves that
// read them back need (§134f: MTE2 0.38-0.46 real, 0.16-0.17 without), nor do a burst-by-burst
// move's (§94's planar rows).
#include <cstdint>
#include <map>
#include <vector>

#include "models/memory/l2_cache.h"

namespace ascendsim {

class PartialLines {
public:
    // A write of `bursts` (each burst a write of its own when `burstsApart`), called before L2 sees
    // it: a line it covers in part that `l2` does not hold becomes partial, a line it covers whole
    // is whole again; a held line covered in part stays as it was, except that a partial one takes
    // the bytes of a single-range write (joined pieces, see above), whichever core writes it.
    void noteWrite(const L2Bursts& bursts, bool burstsApart, const L2Cache& l2);
    // A read of `bursts`, called before L2 sees it: the partial lines it touches that `l2` still
    // holds are filled now (whole from then on); their count is returned. A partial line L2 no
    // longer holds is forgotten (the read's miss fills it whole). A line of which the read wants
    // only bytes its allocating write put there is neither filled nor counted; it stays partial.
    std::uint64_t fillOnRead(const L2Bursts& bursts, const L2Cache& l2);
    // The dirty lines an access evicted (L2RangeOutcome::dirtyVictims): the partial ones among
    // them leave L2 and are forgotten; their count is returned (the lines whose write-back must
    // first read the rest of the line, under OnReadOrEvict).
    std::uint64_t evicted(const std::vector<std::uint64_t>& dirtyVictims);

    bool isPartial(std::uint64_t lineIndex) const { return lines_.count(lineIndex) != 0; }
    std::size_t count() const { return lines_.size(); }

private:
    // Bytes [begin, end) of a line (offsets from its start).
    struct WrittenPiece {
        std::uint32_t begin = 0;
        std::uint32_t end = 0;
    };
    // What a partial line is known to hold: the piece of the write that allocated it, joined by
    // later single-range pieces (in order, apart from each other); none when the allocating
    // write's bytes were not one piece (such a line never takes pieces).
    struct LineContents {
        std::vector<WrittenPiece> pieces;
        void add(WrittenPiece piece);
        bool holds(WrittenPiece wanted) const;
        bool whole(std::uint32_t lineBytes) const;
    };
    // Ordered, so that a transfer's runs of lines are looked up as ranges, not line by line.
    std::map<std::uint64_t, LineContents> lines_;
};

}  // namespace ascendsim
