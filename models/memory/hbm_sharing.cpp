#include "models/memory/hbm_sharing.h"

namespace ascendsim {

double HbmSharing::complete(double arrivalPs, double ownPs, double fcfsDonePs) {
    while (!queued_.empty() && queued_.front().fcfsDonePs <= arrivalPs) {
        queuedOwnPs_ -= queued_.front().ownPs;
        queued_.pop_front();
    }
    if (queued_.empty()) queuedOwnPs_ = 0.0;  // no drift from the running sum
    double done = arrivalPs + ownPs;
    if (!queued_.empty() && queuedOwnPs_ > 0.0) {
        // Backlog ahead = the FCFS completion minus the request's own time.
        const double backlogPs = fcfsDonePs - ownPs - arrivalPs;
        const double meanPs = queuedOwnPs_ / static_cast<double>(queued_.size());
        if (backlogPs > 0.0) done += ownPs * backlogPs / meanPs;
    }
    queued_.push_back({fcfsDonePs, ownPs});
    queuedOwnPs_ += ownPs;
    return done;
}

}  // namespace ascendsim
