#include "sim/replay/run/autograd_tensors.h"

#include <algorithm>
#include <string>

namespace ascendsim {

void NodeTensors::startWalk(std::size_t pass) {
    if (walk == pass) return;
    walk = pass;
    touched.clear();
}

const void* NodeTensors::viewSource(const TensorLru& lru, const TensorKey& key, std::uint64_t bytes,
                                    const std::vector<const void*>& claimed) const {
    if (std::get<2>(key) != "ND") return nullptr;
    for (auto it = touched.rbegin(); it != touched.rend(); ++it) {
        if (it->bytes != bytes || std::get<1>(it->key) != std::get<1>(key) || std::get<2>(it->key) != "ND" ||
            std::get<0>(it->key) == std::get<0>(key))
            continue;
        const void* held = lru.findById(it->key, it->id);
        if (held != nullptr && std::find(claimed.begin(), claimed.end(), held) == claimed.end()) return held;
    }
    return nullptr;
}

void SavedTensors::startWalk(std::size_t pass) {
    if (walk == pass) return;
    walk = pass;
    read.clear();
    written.clear();
    wrote.clear();
}

void SavedTensors::noteRead(const TensorKey& key, std::uint64_t id) {
    const auto [it, fresh] = read.emplace(key, id);
    if (!fresh && it->second != id) it->second = kUnknownTensor;
}

void SavedTensors::noteWritten(const TensorKey& key, std::uint64_t id) {
    written[key] = true;
    const auto [it, fresh] = wrote.emplace(key, id);
    if (!fresh && it->second != id) it->second = kUnknownTensor;
}

std::uint64_t SavedTensors::outputTensor(const TensorKey& key) const {
    const auto it = wrote.find(key);
    return it == wrote.end() ? kUnknownTensor : it->second;
}

std::uint64_t SavedTensors::savedTensor(const TensorKey& key) const {
    const auto it = read.find(key);
    if (it == read.end() || written.count(key) > 0) return kUnknownTensor;
    return it->second;
}

}  // namespace ascendsim
