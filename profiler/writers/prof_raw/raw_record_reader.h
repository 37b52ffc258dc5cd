#pragma once
// Little-endian unpacking of CANN's raw profiling records: the reading side of RawRecordBuffer
// (raw_record_buffer.h). Every read is bounds-checked; a record that runs past the end of its file
// throws RawDataError naming the file and the byte offset where the record began.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ascendsim {

class RawDataError : public std::runtime_error {
public:
    RawDataError(const std::string& file, std::size_t offset, const std::string& what)
        : std::runtime_error(file + ": offset " + std::to_string(offset) + ": " + what) {}
};

class RawRecordReader {
public:
    RawRecordReader(std::string file, std::string_view bytes) : file_(std::move(file)), bytes_(bytes) {}

    bool atEnd() const { return pos_ >= bytes_.size(); }
    std::size_t offset() const { return pos_; }
    const std::string& file() const { return file_; }

    // Starts a record of `size` bytes: fails (naming its offset) when fewer bytes are left.
    void beginRecord(std::size_t size, const char* what) {
        recordStart_ = pos_;
        recordSize_ = size;
        if (bytes_.size() - pos_ < size)
            fail("truncated " + std::string(what) + " record: " + std::to_string(bytes_.size() - pos_) + " of " +
                 std::to_string(size) + " bytes");
    }
    // Skips to the end of the record begun last.
    void endRecord() { pos_ = recordStart_ + recordSize_; }

    std::uint8_t u8() { return static_cast<std::uint8_t>(little(1)); }
    std::uint16_t u16() { return static_cast<std::uint16_t>(little(2)); }
    std::uint32_t u32() { return static_cast<std::uint32_t>(little(4)); }
    std::uint64_t u64() { return little(8); }
    // `count` bytes up to the first NUL.
    std::string text(std::size_t count) {
        need(count);
        std::string_view raw = bytes_.substr(pos_, count);
        pos_ += count;
        return std::string(raw.substr(0, raw.find('\0')));
    }

    // Throws RawDataError at the start of the current record.
    [[noreturn]] void fail(const std::string& what) const { throw RawDataError(file_, recordStart_, what); }

private:
    void need(std::size_t count) const {
        if (pos_ + count > recordStart_ + recordSize_ || pos_ + count > bytes_.size())
            fail("read past the end of the record");
    }
    std::uint64_t little(int count) {
        need(static_cast<std::size_t>(count));
        std::uint64_t v = 0;
        for (int i = 0; i < count; ++i)
            v |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes_[pos_ + static_cast<std::size_t>(i)]))
                 << (8 * i);
        pos_ += static_cast<std::size_t>(count);
        return v;
    }

    std::string file_;
    std::string_view bytes_;
    std::size_t pos_ = 0;
    std::size_t recordStart_ = 0;
    std::size_t recordSize_ = 0;
};

}  // namespace ascendsim
