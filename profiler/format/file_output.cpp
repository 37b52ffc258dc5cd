#include "profiler/format/file_output.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace ascendsim {

void throwErrno(const std::string& what) {
    throw std::system_error(errno, std::generic_category(), what);
}

void writeFileBytes(const std::filesystem::path& path, std::string_view bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) throwErrno("cannot open " + path.string() + " for writing");
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int saved = errno;
            ::close(fd);
            errno = saved;
            throwErrno("cannot write " + path.string());
        }
        done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0) throwErrno("cannot write " + path.string());
}

}  // namespace ascendsim
