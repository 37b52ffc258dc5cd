#pragma once
// Little-endian packing of CANN's raw profiling records (msprof's structs are `#pragma pack(1)`
// and little-endian on every Ascend host: Ascend/msprof analysis/csrc/infrastructure/utils/
// prof_common.h; its Python parsers unpack them with "=" formats, msparser/data_struct_size_constant.py).
#include <cstdint>
#include <string>

namespace ascendsim {

class RawRecordBuffer {
public:
    void u8(std::uint8_t v) { bytes_.push_back(static_cast<char>(v)); }
    void u16(std::uint16_t v) { little(v, 2); }
    void u32(std::uint32_t v) { little(v, 4); }
    void u64(std::uint64_t v) { little(v, 8); }
    // Zero bytes until the record that began at `recordStart` is `recordSize` long.
    void padTo(std::size_t recordStart, std::size_t recordSize) {
        if (bytes_.size() < recordStart + recordSize) bytes_.resize(recordStart + recordSize, '\0');
    }
    std::size_t size() const { return bytes_.size(); }
    const std::string& bytes() const { return bytes_; }

private:
    void little(std::uint64_t v, int count) {
        for (int i = 0; i < count; ++i) bytes_.push_back(static_cast<char>((v >> (8 * i)) & 0xFFu));
    }
    std::string bytes_;
};

}  // namespace ascendsim
