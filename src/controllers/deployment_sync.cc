#include "gpusched/controllers/deployment_sync.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpusched {
namespace {

// The working copy of one ReplicaSet during the sync.
struct Rs {
  RsState s;
  size_t index;  // into the caller's list; SIZE_MAX for the created one
};

// controller.ReplicaSetsByCreationTimestamp: older first, then by name.
bool OlderFirst(const Rs* a, const Rs* b) {
  if (a->s.creation_timestamp == b->s.creation_timestamp) return a->s.name < b->s.name;
  return a->s.creation_timestamp < b->s.creation_timestamp;
}

int64_t Sum(const std::vector<Rs*>& v, int64_t RsState::*field) {
  int64_t n = 0;
  for (const Rs* r : v) n += r->s.*field;
  return n;
}

std::vector<Rs*> Active(const std::vector<Rs*>& v) {
  std::vector<Rs*> out;
  for (Rs* r : v)
    if (r->s.replicas > 0) out.push_back(r);
  return out;
}

int64_t MaxSurge(const DeploymentState& d) {
  if (d.recreate) return 0;
  return ResolveFenceposts(d.max_surge, d.max_unavailable, d.replicas).first;
}

// deploymentutil.MaxUnavailable: never more than the replicas.
int64_t MaxUnavailable(const DeploymentState& d) {
  if (d.recreate || d.replicas == 0) return 0;
  return std::min(ResolveFenceposts(d.max_surge, d.max_unavailable, d.replicas).second, d.replicas);
}

// deploymentutil.IsSaturated.
bool IsSaturated(const DeploymentState& d, const Rs* rs) {
  if (!rs || !rs->s.desired_annotation) return false;
  return rs->s.replicas == d.replicas && *rs->s.desired_annotation == d.replicas && rs->s.available == d.replicas;
}

// getReplicaSetFraction: this ReplicaSet's share of the new size, from the
// deployment's size when the ReplicaSet was last scaled (max-replicas).
int64_t ReplicaSetFraction(const Rs& rs, const DeploymentState& d) {
  if (d.replicas == 0) return -rs.s.replicas;
  const int64_t max_replicas = d.replicas + MaxSurge(d);
  int64_t before = rs.s.max_annotation.value_or(0);
  if (before == 0) {
    before = d.status_replicas;
    if (before == 0) return 0;
  }
  const double size = static_cast<double>(rs.s.replicas) * static_cast<double>(max_replicas) / static_cast<double>(before);
  return static_cast<int64_t>(std::round(size)) - rs.s.replicas;  // integer.RoundToInt32: math.Round
}

int64_t ReplicaSetProportion(const Rs& rs, const DeploymentState& d, int64_t to_add, int64_t added) {
  if (rs.s.replicas == 0 || to_add == 0 || to_add == added) return 0;
  const int64_t fraction = ReplicaSetFraction(rs, d);
  const int64_t allowed = to_add - added;
  return to_add > 0 ? std::min(fraction, allowed) : std::max(fraction, allowed);
}

// DeploymentController.scale (sync.go): a paused Deployment or a scaling event.
void Scale(const DeploymentState& d, Rs* new_rs, std::vector<Rs*> olds, std::string& how) {
  // FindActiveOrLatest: the only active ReplicaSet, or the newest when none is.
  if (new_rs || !olds.empty()) {
    std::vector<Rs*> newest_first = olds;
    std::sort(newest_first.begin(), newest_first.end(), [](const Rs* a, const Rs* b) { return OlderFirst(b, a); });
    std::vector<Rs*> all = newest_first;
    if (new_rs) all.push_back(new_rs);
    std::vector<Rs*> active = Active(all);
    Rs* pick = active.size() == 1 ? active[0] : nullptr;
    if (active.empty()) pick = new_rs ? new_rs : newest_first[0];
    if (pick) {
      pick->s.replicas = d.replicas;
      how += "scaled its one active ReplicaSet " + pick->s.name;
      return;
    }
  }
  if (IsSaturated(d, new_rs)) {
    for (Rs* o : Active(olds)) o->s.replicas = 0;
    how += "new ReplicaSet saturated: old ones scaled to 0";
    return;
  }
  if (d.recreate) return;
  std::vector<Rs*> all = olds;
  if (new_rs) all.push_back(new_rs);
  all = Active(all);
  const int64_t allowed = d.replicas > 0 ? d.replicas + MaxSurge(d) : 0;
  const int64_t to_add = allowed - Sum(all, &RsState::replicas);
  // ReplicaSetsBySizeNewer (scaling up) / ReplicaSetsBySizeOlder (down):
  // bigger first, ties newer (resp. older) first.
  if (to_add > 0) {
    std::sort(all.begin(), all.end(), [](const Rs* a, const Rs* b) {
      return a->s.replicas == b->s.replicas ? OlderFirst(b, a) : a->s.replicas > b->s.replicas;
    });
  } else if (to_add < 0) {
    std::sort(all.begin(), all.end(), [](const Rs* a, const Rs* b) {
      return a->s.replicas == b->s.replicas ? OlderFirst(a, b) : a->s.replicas > b->s.replicas;
    });
  }
  std::vector<int64_t> sizes(all.size());
  int64_t added = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    const int64_t p = to_add != 0 ? ReplicaSetProportion(*all[i], d, to_add, added) : 0;
    sizes[i] = all[i]->s.replicas + p;
    added += p;
  }
  for (size_t i = 0; i < all.size(); ++i) {
    // Leftovers go to the first (largest) ReplicaSet.
    if (i == 0 && to_add != 0) sizes[0] = std::max<int64_t>(0, sizes[0] + to_add - added);
    all[i]->s.replicas = sizes[i];
  }
  if (!all.empty()) how += "proportional scaling over " + std::to_string(all.size()) + " ReplicaSets";
}

// reconcileOldReplicaSets (rolling.go): clean up unhealthy old replicas, then
// scale old ReplicaSets down as far as maxUnavailable allows.
void ReconcileOld(const DeploymentState& d, Rs* new_rs, std::vector<Rs*> olds, const std::vector<Rs*>& all) {
  std::vector<Rs*> active = Active(olds);
  if (Sum(active, &RsState::replicas) == 0) return;
  const int64_t min_available = d.replicas - MaxUnavailable(d);
  const int64_t new_unavailable = new_rs->s.replicas - new_rs->s.available;
  const int64_t max_scaled_down = Sum(all, &RsState::replicas) - min_available - new_unavailable;
  if (max_scaled_down <= 0) return;
  // cleanupUnhealthyReplicas.
  std::sort(active.begin(), active.end(), OlderFirst);
  int64_t cleaned = 0;
  for (Rs* rs : active) {
    if (cleaned >= max_scaled_down) break;
    if (rs->s.replicas == 0 || rs->s.replicas == rs->s.available) continue;
    const int64_t n = std::min(max_scaled_down - cleaned, rs->s.replicas - rs->s.available);
    // Upstream refuses to "scale down" to more replicas and ends the sync.
    if (n < 0) return;
    rs->s.replicas -= n;
    cleaned += n;
  }
  // scaleDownOldReplicaSetsForRollingUpdate, over the active old ones and the new.
  std::vector<Rs*> considered = active;
  considered.push_back(new_rs);
  const int64_t available = Sum(considered, &RsState::available);
  if (available <= min_available) return;
  const int64_t total = available - min_available;
  int64_t scaled = 0;
  for (Rs* rs : active) {
    if (scaled >= total) break;
    if (rs->s.replicas == 0) continue;
    const int64_t n = std::min(rs->s.replicas, total - scaled);
    rs->s.replicas -= n;
    scaled += n;
  }
}

}  // namespace

std::pair<int64_t, int64_t> ResolveFenceposts(const IntOrPercent& max_surge, const IntOrPercent& max_unavailable,
                                              int64_t desired) {
  const int64_t surge = ScaledValue(max_surge, desired, /*round_up=*/true);
  int64_t unavailable = ScaledValue(max_unavailable, desired, /*round_up=*/false);
  if (surge == 0 && unavailable == 0) unavailable = 1;
  return {surge, unavailable};
}

int64_t NewRSNewReplicas(const DeploymentState& d, int64_t all_replicas, int64_t new_replicas) {
  if (d.recreate) return d.replicas;
  const int64_t max_total = d.replicas + ScaledValue(d.max_surge, d.replicas, /*round_up=*/true);
  if (all_replicas >= max_total) return new_replicas;
  return new_replicas + std::min(max_total - all_replicas, d.replicas - new_replicas);
}

DeploymentSyncResult SyncDeployment(const DeploymentState& d, const std::vector<RsState>& rss,
                                    std::optional<size_t> new_index, bool old_pods_running) {
  std::vector<Rs> store;
  store.reserve(rss.size() + 1);
  for (size_t i = 0; i < rss.size(); ++i) store.push_back(Rs{rss[i], i});
  Rs* new_rs = new_index ? &store[*new_index] : nullptr;
  std::vector<Rs*> olds;
  for (Rs& r : store)
    if (&r != new_rs) olds.push_back(&r);

  DeploymentSyncResult out;
  auto create_new = [&](int64_t replicas) {
    store.push_back(Rs{RsState{}, SIZE_MAX});
    new_rs = &store.back();
    new_rs->s.replicas = replicas;
    out.create_new = true;
  };
  auto finish = [&] {
    for (const Rs& r : store) {
      if (r.index == SIZE_MAX) {
        out.new_replicas = r.s.replicas;
      } else {
        out.replicas.push_back(r.s.replicas);
      }
    }
    return out;
  };

  // isScalingEvent: an active ReplicaSet whose desired-replicas annotation
  // is not the Deployment's replicas.
  bool scaling_event = false;
  for (Rs& r : store)
    if (r.s.replicas > 0 && r.s.desired_annotation && *r.s.desired_annotation != d.replicas) scaling_event = true;
  if (d.paused || scaling_event) {
    out.how = d.paused ? "paused: " : "scaling event: ";
    Scale(d, new_rs, olds, out.how);
    if (out.how.back() == ' ') out.how += "nothing to scale";
    return finish();
  }

  if (d.recreate) {
    // rolloutRecreate: old ReplicaSets to 0; the new one only once no old pod runs.
    bool scaled_down = false;
    for (Rs* o : Active(olds)) {
      o->s.replicas = 0;
      scaled_down = true;
    }
    if (scaled_down) {
      out.how = "Recreate: old ReplicaSets scaled to 0 first";
      return finish();
    }
    if (old_pods_running || Sum(olds, &RsState::status_replicas) > 0) {
      out.how = "Recreate: waiting for the old pods to terminate";
      return finish();
    }
    if (!new_rs) create_new(0);
    new_rs->s.replicas = d.replicas;
    out.how = "Recreate";
    return finish();
  }

  // rolloutRolling.
  if (!new_rs) {
    std::vector<Rs*> all_old = olds;
    create_new(NewRSNewReplicas(d, Sum(all_old, &RsState::replicas), 0));
    // store may have moved: rebuild the old pointers.
    olds.clear();
    for (Rs& r : store)
      if (&r != new_rs) olds.push_back(&r);
  }
  std::vector<Rs*> all = olds;
  all.push_back(new_rs);
  out.how = "rolling update";
  // reconcileNewReplicaSet; a sync that scaled the new ReplicaSet ends there.
  if (new_rs->s.replicas != d.replicas) {
    const int64_t target =
        new_rs->s.replicas > d.replicas ? d.replicas : NewRSNewReplicas(d, Sum(all, &RsState::replicas), new_rs->s.replicas);
    if (target != new_rs->s.replicas) {
      new_rs->s.replicas = target;
      return finish();
    }
  }
  ReconcileOld(d, new_rs, olds, all);
  return finish();
}

}  // namespace gpusched
