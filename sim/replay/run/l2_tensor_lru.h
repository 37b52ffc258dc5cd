#pragma once
// The tensors the L2 timeline (l2_timeline.h) takes L2 to hold, whole, most recently used first,
// each with the kernels that touched it while held and the write that last touched it. A tensor
// larger than the capacity streams through and leaves a remnant; a tensor evicted in part leaves
// one too: lines no read finds whose dirty share still goes out (docs/fidelity.md §42, §103, §107).
#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <string>
#include <vector>

#include "sim/replay/run/l2_timeline.h"
#include "sim/replay/run/tensor_identity.h"

namespace ascendsim {

// The tensors L2 holds, most recently used first, each with the kernel that last touched it.
// Held tensors are handed out as opaque handles (const void*), valid while they stay held.
class TensorLru {
public:
    explicit TensorLru(std::uint64_t capacity) : capacity_(capacity) {}

    // The newest held tensor of `key` that `kernel` may be reading: not one any launch of the same
    // kernel (op and shapes) touched since it entered L2, and not one `claimed` already. The same
    // kernel launched again works on another tensor of that identity (a loop over layers or
    // parameter groups: ApplyAdamW and Cast over every weight of one shape), also when another
    // kernel of the loop touched the tensor after it (grad clipping's Mul, then the copy back
    // into the gradient, per parameter); null when none is held.
    const void* find(const TensorKey& key, const std::string& kernel, const std::vector<const void*>& claimed) const;

    // The held tensor `id` (idOf) of `key`, whoever touched it: a read the data flow names (a
    // backward op's saved tensor, autograd_links.h); null when it is no longer held.
    const void* findById(const TensorKey& key, std::uint64_t id) const;
    // A held tensor's identity: kept while it stays held, a new one each time it enters L2.
    std::uint64_t idOf(const void* tensor) const { return entryOf(tensor).id; }
    const TensorKey& keyOf(const void* tensor) const { return entryOf(tensor).key; }

    std::uint64_t stampOf(const void* tensor) const { return entryOf(tensor).stamp; }
    // The walk's row: the tensors touched from now on are touched together (one launch streams its
    // tensors tile by tile, so their lines are equally old).
    void startRow(std::uint64_t row) { row_ = row; }
    // An in-place write into `tensor` (an input of `bytes` the row just read, by use or add): dirty
    // from now on; into the remnant of a tensor streamed past L2, that tensor's share of it.
    // Nothing when it is no longer held (the row's later tensors pushed it out).
    void markWritten(const void* tensor, std::uint64_t bytes);
    std::uint64_t bytesHeld() const { return bytesHeld_; }

    // A kernel read held `tensor` as a view of another shape, `key` (the same bytes): later readers
    // of that shape find it under `key` too, as they would the tensor a cold read of `key` brings in.
    void addAlias(const void* tensor, const TensorKey& key);

    // The dirty bytes among the `bytes` least recently used held bytes, the tensors in `spared`
    // (the row's own, which it touches before anything is evicted) left out. The tensors one row
    // touched last leave together, in proportion (their lines are interleaved in age), as does a
    // remnant's dirty share. With `dirtyOnly` the clean tensors are passed over, as if victims were
    // taken dirty first: the most write-back `bytes` of victims can cost, whatever the replacement.
    double dirtyBytesOfOldest(std::uint64_t bytes, const std::vector<const void*>& spared, bool dirtyOnly = false) const;
    const TensorWriter& writerOf(const void* tensor) const { return entryOf(tensor).writer; }
    // The profile row that last wrote a held tensor, however many reads came after (TensorWriter::kNone: none).
    std::size_t writtenRowOf(const void* tensor) const { return entryOf(tensor).writtenRow; }
    // Every held tensor of `key`.
    std::vector<const void*> heldOf(const TensorKey& key) const;

    // `kernel` touches `tensor` of `key` (found by find): it becomes the most recently used; if
    // the same kernel's other tensors pushed it out meanwhile, it is brought in again. `writer`:
    // the write that touches it (none for a read). Returns the held tensor (null: not held).
    const void* use(const TensorKey& key, const void* tensor, std::uint64_t bytes, const std::string& kernel,
                    const TensorWriter& writer);

    // A tensor of `key` that `kernel` brings in: an output it writes (`writer`), or an input read
    // cold (no writer). Returns it (null: not held). A tensor larger than L2 streams through it:
    // L2 is left full of the last lines the row streamed, which no later read finds (a remnant,
    // dirty as far as they were written), and none of the tensors before it; returns the remnant.
    const void* add(const TensorKey& key, std::uint64_t bytes, const std::string& kernel, const TensorWriter& writer);

private:
    struct Entry {
        TensorKey key;
        std::uint64_t bytes;
        std::uint64_t stamp;
        std::uint64_t row;                  // the walk's row that last touched it
        std::vector<std::string> touchers;  // the kernels (op and shapes) that read or wrote it while held
        TensorWriter writer;                // the write that last touched it, if no read came after
        bool dirty = false;                 // written since it entered L2 (a read does not clean it)
        // A remnant: lines no read finds — the last of the tensors a row streamed past L2 (stream),
        // or what stays of a tensor L2 evicted in part (evictOldest) — with the bytes they stand
        // for and how many of those were written.
        bool remnant = false;
        std::uint64_t streamed = 0;
        std::uint64_t streamedDirty = 0;
        std::uint64_t id = 0;  // idOf; 0 for a remnant
        std::size_t writtenRow = TensorWriter::kNone;  // the profile row that last wrote it, reads or not since
        std::vector<TensorKey> aliases = {};  // the other identities it is found under (addAlias)
        double dirtyShare() const {
            if (remnant) return static_cast<double>(streamedDirty) / static_cast<double>(streamed);
            return dirty ? 1.0 : 0.0;
        }
    };

    static const Entry& entryOf(const void* tensor) { return *static_cast<const Entry*>(tensor); }

    // `bytes` (> capacity) streamed by the current row, written or read: the row's remnant takes
    // them (a row streaming several tensors interleaves them).
    const void* stream(std::uint64_t bytes, bool written);

    static bool touchedBy(const Entry& entry, const std::string& kernel);

    // The least recently used lines leave, as many as L2 is over: whole tensors (a tensor is held
    // whole or not at all, for find), but the lines of a tensor only part of which had to leave
    // stay, as a remnant of its dirtiness that no read finds.
    void evictOldest();

    // `entry` is no longer found under `key`.
    void unlist(const TensorKey& key, std::list<Entry>::iterator entry);

    std::uint64_t capacity_;
    std::uint64_t clock_ = 0;
    std::uint64_t row_ = 0;
    std::uint64_t bytesHeld_ = 0;
    std::uint64_t lastId_ = 0;
    std::list<Entry> held_;
    std::map<TensorKey, std::vector<std::list<Entry>::iterator>> byKey_;
};

}  // namespace ascendsim
