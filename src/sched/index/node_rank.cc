// The FGD simulator's tie-break order (see node_rank.h).
#include "gpusched/sched/index/node_rank.h"

namespace gpusched {

const std::vector<uint32_t>& NodeRank::Ensure(size_t n, Rng& rng) {
  if (!drawn_) {
    drawn_ = true;
    // rand.Perm: an inside-out Fisher-Yates shuffle of 0..n-1.
    rank_.assign(n, 0);
    for (size_t i = 1; i < n; ++i) {
      const size_t j = static_cast<size_t>(rng.Uniform(i + 1));
      rank_[i] = rank_[j];
      rank_[j] = static_cast<uint32_t>(i);
    }
  }
  // Nodes added after the draw rank after every earlier node.
  while (rank_.size() < n) rank_.push_back(static_cast<uint32_t>(rank_.size()));
  return rank_;
}

HighestPick PickHighest(const std::vector<size_t>& feasible, const std::vector<int64_t>& scores,
                        const std::vector<uint32_t>& rank) {
  HighestPick p{0, 1};
  int64_t best = scores[0];
  uint32_t best_rank = rank[feasible[0]];
  for (size_t k = 1; k < feasible.size(); ++k) {
    const int64_t s = scores[k];
    if (s < best) continue;
    const uint32_t r = rank[feasible[k]];
    if (s > best) {
      best = s;
      best_rank = r;
      p = HighestPick{k, 1};
    } else {
      ++p.ties;
      if (r < best_rank) {
        best_rank = r;
        p.index = k;
      }
    }
  }
  return p;
}

}  // namespace gpusched
