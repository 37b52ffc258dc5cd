#include "sim/replay/run/l2_tensor_lru.h"

#include <algorithm>
#include <iterator>

namespace ascendsim {

const void* TensorLru::find(const TensorKey& key, const std::string& kernel, const std::vector<const void*>& claimed) const {
    const auto it = byKey_.find(key);
    if (it == byKey_.end()) return nullptr;
    const Entry* best = nullptr;
    for (const auto& entry : it->second) {
        if (touchedBy(*entry, kernel) || std::find(claimed.begin(), claimed.end(), &*entry) != claimed.end()) continue;
        if (best == nullptr || entry->stamp > best->stamp) best = &*entry;
    }
    return best;
}

const void* TensorLru::findById(const TensorKey& key, std::uint64_t id) const {
    const auto it = byKey_.find(key);
    if (it == byKey_.end()) return nullptr;
    for (const auto& entry : it->second)
        if (entry->id == id) return &*entry;
    return nullptr;
}

void TensorLru::markWritten(const void* tensor, std::uint64_t bytes) {
    for (auto& entry : held_) {
        if (&entry != tensor) continue;
        if (entry.remnant) entry.streamedDirty = std::min(entry.streamed, entry.streamedDirty + bytes);
        else entry.dirty = true;
    }
}

void TensorLru::addAlias(const void* tensor, const TensorKey& key) {
    for (auto it = held_.begin(); it != held_.end(); ++it) {
        if (&*it != tensor) continue;
        if (it->remnant || it->key == key || std::find(it->aliases.begin(), it->aliases.end(), key) != it->aliases.end())
            return;
        it->aliases.push_back(key);
        byKey_[key].push_back(it);
        return;
    }
}

double TensorLru::dirtyBytesOfOldest(std::uint64_t bytes, const std::vector<const void*>& spared, bool dirtyOnly) const {
    double dirty = 0.0;
    std::uint64_t counted = 0;
    auto it = held_.rbegin();
    while (it != held_.rend() && counted < bytes) {
        const std::uint64_t row = it->row;
        double groupDirty = 0.0;
        std::uint64_t groupBytes = 0;
        for (; it != held_.rend() && it->row == row; ++it) {
            if (std::find(spared.begin(), spared.end(), &*it) != spared.end()) continue;
            if (dirtyOnly && it->dirtyShare() == 0.0) continue;
            groupBytes += it->bytes;
            groupDirty += static_cast<double>(it->bytes) * it->dirtyShare();
        }
        if (groupBytes == 0) continue;
        const std::uint64_t taken = std::min(groupBytes, bytes - counted);
        dirty += groupDirty * static_cast<double>(taken) / static_cast<double>(groupBytes);
        counted += taken;
    }
    return dirty;
}

std::vector<const void*> TensorLru::heldOf(const TensorKey& key) const {
    std::vector<const void*> tensors;
    const auto it = byKey_.find(key);
    if (it != byKey_.end())
        for (const auto& entry : it->second) tensors.push_back(&*entry);
    return tensors;
}

const void* TensorLru::use(const TensorKey& key, const void* tensor, std::uint64_t bytes, const std::string& kernel,
                           const TensorWriter& writer) {
    const auto sameKey = byKey_.find(key);
    for (std::size_t n = 0; sameKey != byKey_.end() && n < sameKey->second.size(); ++n) {
        const auto it = sameKey->second[n];
        if (&*it != tensor) continue;
        it->stamp = ++clock_;
        it->row = row_;
        it->writer = writer;
        if (writer.present()) it->writtenRow = writer.row;
        it->dirty = it->dirty || writer.present();
        if (!touchedBy(*it, kernel)) it->touchers.push_back(kernel);
        held_.splice(held_.begin(), held_, it);
        return tensor;
    }
    return add(key, bytes, kernel, writer);
}

const void* TensorLru::add(const TensorKey& key, std::uint64_t bytes, const std::string& kernel, const TensorWriter& writer) {
    if (bytes == 0) return nullptr;  // size unknown: not tracked
    if (bytes > capacity_) return stream(bytes, writer.present());
    held_.push_front(Entry{key, bytes, ++clock_, row_, {kernel}, writer, writer.present()});
    held_.front().id = ++lastId_;
    held_.front().writtenRow = writer.row;
    byKey_[key].push_back(held_.begin());
    bytesHeld_ += bytes;
    while (bytesHeld_ > capacity_) evictOldest();
    return &held_.front();
}

const void* TensorLru::stream(std::uint64_t bytes, bool written) {
    const bool sameRow = held_.size() == 1 && held_.front().remnant && held_.front().row == row_;
    if (!sameRow) {
        held_.clear();
        byKey_.clear();
        held_.push_front(Entry{{}, capacity_, ++clock_, row_, {}, TensorWriter{}, false, true, 0, 0});
        bytesHeld_ = capacity_;
    }
    Entry& remnant = held_.front();
    remnant.streamed += bytes;
    if (written) remnant.streamedDirty += bytes;
    return &remnant;
}

bool TensorLru::touchedBy(const Entry& entry, const std::string& kernel) {
    return std::find(entry.touchers.begin(), entry.touchers.end(), kernel) != entry.touchers.end();
}

void TensorLru::evictOldest() {
    Entry& victim = held_.back();  // a remnant, or a tensor (whole, below)
    const std::uint64_t over = bytesHeld_ - capacity_;
    if (victim.remnant && victim.bytes > over) {  // only its oldest lines leave
        victim.bytes -= over;
        bytesHeld_ -= over;
        return;
    }
    if (victim.remnant) {
        bytesHeld_ -= victim.bytes;
        held_.pop_back();
        return;
    }
    const auto whole = std::prev(held_.end());
    if (whole->bytes > over) {
        const std::uint64_t staying = whole->bytes - over;
        held_.push_back(Entry{{}, staying, whole->stamp, whole->row, {}, TensorWriter{}, false, true, staying,
                              whole->dirty ? staying : 0});
        bytesHeld_ += staying;
    }
    for (const TensorKey& key : whole->aliases) unlist(key, whole);
    unlist(whole->key, whole);
    bytesHeld_ -= whole->bytes;
    held_.erase(whole);
}

void TensorLru::unlist(const TensorKey& key, std::list<Entry>::iterator entry) {
    auto& sameKey = byKey_[key];
    sameKey.erase(std::find(sameKey.begin(), sameKey.end(), entry));
    if (sameKey.empty()) byKey_.erase(key);
}

}  // namespace ascendsim
