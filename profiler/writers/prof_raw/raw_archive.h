#pragma once
// The two archives that visit a raw record's field list (raw_layouts.h): each layout states its
// fields once, in one `fields(record, archive)` function, and the same list is packed by
// RawWriteArchive (the collection's writers) and unpacked by RawReadArchive (the raw-data reader,
// profiler/readers/prof_raw). A field's width is its C++ type's (the layouts use exact-width types).
//
// What a layout can say, and what each archive does with it:
//   field(x), fields(x, y...)  a value: written; read back into x
//   constant<T>(v)             a reserved or fixed field nobody checks: written as v; skipped on reading
//   repeat(x)                  a field that repeats another one (a header timestamp, a thread id):
//                              written as x; skipped on reading
//   magic(v)                   a magic number: written as v; on reading a different value fails
//   expect(x, v, what)         a fixed field that identifies the record (a magic number, a level):
//                              written as v; read, checked against v (RawDataError naming the file
//                              and the record's offset) and stored in x
//   packed<T>(parts...)        a word of bit fields (bits(x, shift, width))
//   text(s, n)                 n bytes: s NUL-padded (at most n-1 bytes of it); read up to the first NUL
//   count(v, max, what)        a u32 element count of the vector v: read, checked against max, v resized
//   require(ok, what)          a check of the decoded values, made only on reading
//   record(bytes, what, body)  a whole record: zero-padded to `bytes`; read from a record of `bytes`
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "profiler/writers/prof_raw/raw_record_buffer.h"
#include "profiler/writers/prof_raw/raw_record_reader.h"

namespace ascendsim {

// A bit field of a packed word: `width` bits of `value` at `shift`.
template <typename T>
struct RawBits {
    T& value;
    unsigned shift;
    unsigned width;
};
template <typename T>
RawBits<T> bits(T& value, unsigned shift, unsigned width) {
    return {value, shift, width};
}

namespace raw_archive_detail {
inline std::uint64_t mask(unsigned width) { return width >= 64 ? ~0ULL : (1ULL << width) - 1; }
}  // namespace raw_archive_detail

class RawWriteArchive {
public:
    explicit RawWriteArchive(RawRecordBuffer& out) : out_(out) {}

    template <typename T>
    void field(const T& v) {
        put(static_cast<std::uint64_t>(v), sizeof(T));
    }
    template <typename... T>
    void fields(const T&... v) {
        (field(v), ...);
    }
    template <typename T>
    void constant(std::uint64_t v) {
        put(v, sizeof(T));
    }
    template <typename T>
    void repeat(const T& v) {
        field(v);
    }
    template <typename T>
    void magic(T v) {
        field(v);
    }
    template <typename T>
    void expect(const T&, T v, const char*) {
        field(v);
    }
    template <typename Word, typename... Parts>
    void packed(const Parts&... parts) {
        std::uint64_t word = 0;
        ((word |= part(parts)), ...);
        put(word, sizeof(Word));
    }
    void text(const std::string& s, std::size_t n) {
        const std::size_t used = std::min(s.size(), n - 1);
        for (std::size_t i = 0; i < n; ++i) out_.u8(i < used ? static_cast<std::uint8_t>(s[i]) : 0);
    }
    template <typename T>
    void count(const std::vector<T>& v, std::size_t, const char*) {
        put(v.size(), 4);
    }
    template <typename Ok>
    void require(Ok, const char*) {}
    template <typename Body>
    void record(std::size_t bytes, const char*, Body body) {
        const std::size_t start = out_.size();
        body();
        out_.padTo(start, bytes);
    }

private:
    template <typename T>
    static std::uint64_t part(const RawBits<T>& b) {
        return (static_cast<std::uint64_t>(b.value) & raw_archive_detail::mask(b.width)) << b.shift;
    }
    void put(std::uint64_t v, std::size_t bytes) {
        for (std::size_t i = 0; i < bytes; ++i) out_.u8(static_cast<std::uint8_t>((v >> (8 * i)) & 0xFFu));
    }
    RawRecordBuffer& out_;
};

class RawReadArchive {
public:
    explicit RawReadArchive(RawRecordReader& in) : in_(in) {}

    template <typename T>
    void field(T& v) {
        v = static_cast<T>(get(sizeof(T)));
    }
    template <typename... T>
    void fields(T&... v) {
        (field(v), ...);
    }
    template <typename T>
    void constant(std::uint64_t) {
        get(sizeof(T));
    }
    template <typename T>
    void repeat(const T&) {
        get(sizeof(T));
    }
    template <typename T>
    void magic(T expected) {
        const std::uint64_t found = get(sizeof(T));
        if (found != expected)
            in_.fail("bad magic number " + hex(found) + " (expected " + hex(expected) + ")");
    }
    template <typename T>
    void expect(T& v, T expected, const char* what) {
        field(v);
        if (v != expected) mismatch(what, v, expected);
    }
    template <typename Word, typename... Parts>
    void packed(const Parts&... parts) {
        const std::uint64_t word = get(sizeof(Word));
        (part(word, parts), ...);
    }
    void text(std::string& s, std::size_t n) { s = in_.text(n); }
    template <typename T>
    void count(std::vector<T>& v, std::size_t max, const char* what) {
        const std::uint64_t n = get(4);
        if (n > max)
            in_.fail(std::string(what) + " count " + std::to_string(n) + " (at most " + std::to_string(max) + ")");
        v.resize(static_cast<std::size_t>(n));
    }
    void require(bool ok, const char* what) {
        if (!ok) in_.fail(what);
    }
    template <typename Body>
    void record(std::size_t bytes, const char* what, Body body) {
        in_.beginRecord(bytes, what);
        body();
        in_.endRecord();
    }

private:
    template <typename T>
    static void part(std::uint64_t word, const RawBits<T>& b) {
        b.value = static_cast<T>((word >> b.shift) & raw_archive_detail::mask(b.width));
    }
    [[noreturn]] void mismatch(const char* what, std::uint64_t found, std::uint64_t expected) const {
        in_.fail(std::string(what) + " " + std::to_string(found) + " (expected " + std::to_string(expected) + ")");
    }
    static std::string hex(std::uint64_t v) {
        static const char* digits = "0123456789ABCDEF";
        std::string s;
        do {
            s.insert(s.begin(), digits[v & 0xFu]);
            v >>= 4;
        } while (v != 0);
        return "0x" + s;
    }
    std::uint64_t get(std::size_t bytes) {
        switch (bytes) {
            case 1: return in_.u8();
            case 2: return in_.u16();
            case 4: return in_.u32();
            default: return in_.u64();
        }
    }
    RawRecordReader& in_;
};

// A record's bytes, packed from its field list.
template <typename Record>
void encodeRaw(const Record& r, RawRecordBuffer& out) {
    RawWriteArchive archive(out);
    Record::fields(r, archive);
}

// One record unpacked from its field list; throws RawDataError naming the file and its offset.
template <typename Record>
Record decodeRaw(RawRecordReader& in) {
    Record r;
    RawReadArchive archive(in);
    Record::fields(r, archive);
    return r;
}

// Every record of one file (records of a fixed size, back to back).
template <typename Record>
std::vector<Record> decodeAll(RawRecordReader& in) {
    std::vector<Record> records;
    while (!in.atEnd()) records.push_back(decodeRaw<Record>(in));
    return records;
}

}  // namespace ascendsim
