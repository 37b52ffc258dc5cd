#include "sim/engine/exit_codes.h"

#include <new>
#include <string>
#include <system_error>

#include "sim/config/config_error.h"
#include "sim/workload/workload_error.h"

namespace ascendsim {

int reportFailure(std::exception_ptr error, std::string_view command, std::ostream& err,
                  bool otherErrorsAreBadInput) {
    std::string prefix = "ascendsim";
    if (!command.empty()) prefix.append(1, ' ').append(command);
    try {
        std::rethrow_exception(error);
    } catch (const WorkloadError& e) {
        err << prefix << ": " << e.what() << "\n";
        return kExitBadInput;
    } catch (const ConfigError& e) {
        err << prefix << ": " << e.what() << "\n";
        return kExitBadInput;
    } catch (const UsageError& e) {
        err << prefix << ": " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::system_error& e) {  // filesystem_error too: its text has the reason
        err << prefix << ": error: " << e.what() << "\n";
        return kExitRuntimeFailure;
    } catch (const std::bad_alloc&) {
        err << prefix << ": error: out of host memory\n";
        return kExitRuntimeFailure;
    } catch (const std::exception& e) {
        err << prefix << ": " << (otherErrorsAreBadInput ? "" : "error: ") << e.what() << "\n";
        return otherErrorsAreBadInput ? kExitBadInput : kExitRuntimeFailure;
    } catch (...) {
        err << prefix << ": error: unknown failure\n";
        return kExitRuntimeFailure;
    }
}

}  // namespace ascendsim
