// One sync of the Deployment controller over a snapshot of its ReplicaSets,
// reduced to what decides pod counts: each ReplicaSet's spec.replicas after
// the sync, and whether it creates a new ReplicaSet (and its size). Ported
// from pkg/controller/deployment (syncDeployment: sync/scale when paused or
// on a scaling event, rolloutRolling, rolloutRecreate) and its util
// (NewRSNewReplicas, ResolveFenceposts, MaxSurge, MaxUnavailable,
// FindActiveOrLatest, IsSaturated, GetReplicaSetProportion).
//
// gpusched then lets each ReplicaSet's controller make up the pods it lacks.
// Pods a scale-down would delete are not removed: they are in the input, so
// they are there now.
#ifndef GPUSCHED_CONTROLLERS_DEPLOYMENT_SYNC_H_
#define GPUSCHED_CONTROLLERS_DEPLOYMENT_SYNC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/controller.h"

namespace gpusched {

// One ReplicaSet as the Deployment controller reads it.
struct RsState {
  std::string name;
  std::string creation_timestamp;
  int64_t replicas = 0;         // spec.replicas
  int64_t status_replicas = 0;  // status.replicas
  int64_t available = 0;        // status.availableReplicas
  std::optional<int64_t> desired_annotation;  // deployment.kubernetes.io/desired-replicas
  std::optional<int64_t> max_annotation;      // deployment.kubernetes.io/max-replicas
};

// The Deployment's spec (defaulted) and status.replicas.
struct DeploymentState {
  int64_t replicas = 1;
  bool recreate = false;
  IntOrPercent max_surge{25, true};
  IntOrPercent max_unavailable{25, true};
  bool paused = false;
  int64_t status_replicas = 0;
};

struct DeploymentSyncResult {
  std::vector<int64_t> replicas;  // spec.replicas of each given ReplicaSet after the sync
  bool create_new = false;        // the controller creates the new ReplicaSet now
  int64_t new_replicas = 0;       // ... with this spec.replicas
  std::string how;                // which path of syncDeployment ran, for explanations
};

// `rss`: the Deployment's ReplicaSets; `new_rs`: the index of the one whose
// template is the Deployment's (absent if none is); `old_pods_running`: a pod
// of an old ReplicaSet is not terminated (Recreate waits for them).
DeploymentSyncResult SyncDeployment(const DeploymentState& d, const std::vector<RsState>& rss,
                                    std::optional<size_t> new_rs, bool old_pods_running);

// deploymentutil.ResolveFenceposts: (maxSurge, maxUnavailable) resolved
// against `desired`, maxUnavailable 1 when both round to 0.
std::pair<int64_t, int64_t> ResolveFenceposts(const IntOrPercent& max_surge, const IntOrPercent& max_unavailable,
                                              int64_t desired);

// deploymentutil.NewRSNewReplicas: the new ReplicaSet's size when it may
// grow, given the sum of every ReplicaSet's spec.replicas (it included).
int64_t NewRSNewReplicas(const DeploymentState& d, int64_t all_replicas, int64_t new_replicas);

}  // namespace gpusched

#endif  // GPUSCHED_CONTROLLERS_DEPLOYMENT_SYNC_H_
