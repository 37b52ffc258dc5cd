#pragma once
// The processes of `mpirun -np N ascendsim ...` (Debian's OpenMPI): a RankExchange over
// MPI_COMM_WORLD. Started by mpirun (OMPI_COMM_WORLD_SIZE or PMI_SIZE in the environment), the
// binary initialises MPI here and finalises it when the exchange goes; started any other way it
// is the only process and never touches MPI.
#include <memory>

#include "sim/engine/cluster/rank_exchange.h"

namespace ascendsim {

// Whether this binary was built with MPI (find_package(MPI) found it).
bool builtWithMpi();

// The exchange of this process: MPI when started by mpirun with more than one process, else a
// single process. Throws std::runtime_error when mpirun started several processes of a binary
// built without MPI (each would write every rank).
std::unique_ptr<RankExchange> makeProcessExchange();

}  // namespace ascendsim
