// ExtenderService's fast path for filter and prioritize by node names
// (server/extender.h): the same decisions as the generic path
// (FilterLocked, ExtenderDecisions) on a body decoded by the scanner and an
// answer written from positions in the request.
#include "gpusched/server/answer_writer.h"
#include "gpusched/server/extender.h"

#include <optional>

namespace gpusched {

bool ExtenderService::DecodeFast(std::string_view body, FastArgs& out) {
  if (!ScanExtenderArgs(body, &name_lists_, out.scanned)) return false;
  const std::string_view pod = out.scanned.pod;
  out.pod = pods_.Match(pod);
  if (out.pod && out.pod->text.size() != pod.size()) out.pod = nullptr;
  if (!out.pod) {
    out.pod = DecodeRequestPod(pod);
    if (!out.pod) return false;
    pods_.Insert(out.pod);
  }
  return true;
}

std::shared_ptr<const NodeNameIndex> ExtenderService::ResolveScanned(const ScannedArgs& a,
                                                                     std::vector<int64_t>& slots) const {
  std::shared_ptr<const NodeNameIndex> index;
  {
    std::lock_guard<std::mutex> n(names_mu_);
    index = names_;
  }
  if (index && a.known && a.known->index == index) {
    slots = a.known->slots;
    return index;
  }
  slots.assign(a.names.size(), -1);
  if (index)
    for (size_t i = 0; i < a.names.size(); ++i) slots[i] = index->Find(a.names[i]);
  return index;
}

void ExtenderService::RememberNames(const ScannedArgs& a, const std::shared_ptr<const NodeNameIndex>& index,
                                    std::vector<int64_t> slots) {
  if (!index || (a.known && a.known->index == index)) return;
  auto list = std::make_shared<NameList>();
  list->text.assign(a.names_text);
  list->names.reserve(a.names.size());
  for (std::string_view n : a.names)
    list->names.emplace_back(n.empty() ? 0 : static_cast<uint32_t>(n.data() - a.names_text.data()),
                             static_cast<uint32_t>(n.size()));
  list->plain = a.plain;
  list->index = index;
  list->slots = std::move(slots);
  name_lists_.Insert(std::move(list));
}

Reply ExtenderService::FilterFast(const FastArgs& a) {
  const std::vector<std::string_view>& names = a.scanned.names;
  const PodInfo& info = a.pod->info;
  std::vector<int64_t> slots;
  std::shared_ptr<const NodeNameIndex> index = ResolveScanned(a.scanned, slots);
  std::optional<FilterNamesAnswer> answer;
  {
    std::lock_guard<std::mutex> l(mu_);
    if (!decisions_) {
      if (metrics_) metrics_->Error("filter", "not_ready");
      return NotReady();
    }
    ExpireAssumedLocked(Clock::now());
    view_.RememberPending(a.pod->pod);
    std::vector<const NodeVerdict*> verdicts;
    FilterLocked(info, names, index, slots, verdicts);
    // Read off the verdicts under the lock: the cached ones change with the
    // view. Reasons are copied once each (interned); a known node's name is
    // ranked by the index its slot came from.
    answer.emplace(index ? index->num_names() : 0);
    answer->Reserve(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
      const NodeVerdict* v = verdicts[i];
      if (!v) {
        answer->Fail(i, kReasonUnknownNode, false);
      } else if (v->passed) {
        answer->Pass(i);
      } else {
        answer->Fail(i, v->reason, v->unresolvable, index->Rank(static_cast<size_t>(slots[i])));
      }
    }
  }
  if (metrics_) {
    size_t unknown = 0;
    for (const FilterNamesAnswer::Failure& f : answer->failed()) unknown += slots[f.at] < 0;
    const size_t failed = answer->failed().size() - unknown;
    if (!answer->passed().empty()) metrics_->Decision("filter", "passed", static_cast<double>(answer->passed().size()));
    if (failed) metrics_->Decision("filter", "failed", static_cast<double>(failed));
    if (!answer->unresolvable().empty())
      metrics_->Decision("filter", "unresolvable", static_cast<double>(answer->unresolvable().size()));
    if (unknown) metrics_->Decision("filter", "unknown", static_cast<double>(unknown));
  }
  // The names that passed, as written, are what kube-scheduler sends
  // /prioritize next: kept with their slots.
  std::shared_ptr<NameList> passed;
  if (a.scanned.plain && index) passed = std::make_shared<NameList>();
  Reply reply{200, EncodeFilterNames(names, a.scanned.plain, *answer, passed.get())};
  // Every name passed and the request wrote them as Go does: the answer's
  // list is the request's, which RememberNames keeps.
  if (passed && passed->text.size() == a.scanned.names_text.size() && answer->passed().size() == names.size())
    passed = nullptr;
  if (passed) {
    passed->index = index;
    passed->slots.reserve(answer->passed().size());
    for (uint32_t at : answer->passed()) passed->slots.push_back(slots[at]);
    name_lists_.Insert(std::move(passed));
  }
  RememberNames(a.scanned, index, std::move(slots));
  return reply;
}

Reply ExtenderService::PrioritizeFast(const FastArgs& a) {
  const std::vector<std::string_view>& names = a.scanned.names;
  const PodInfo& info = a.pod->info;
  std::vector<int64_t> by_name(names.size(), 0);
  std::vector<int64_t> slots;
  std::shared_ptr<const NodeNameIndex> index = ResolveScanned(a.scanned, slots);
  {
    std::lock_guard<std::mutex> l(mu_);
    if (!decisions_) {
      if (metrics_) metrics_->Error("prioritize", "not_ready");
      return NotReady();
    }
    ExpireAssumedLocked(Clock::now());
    std::vector<const NodeVerdict*> verdicts;
    std::vector<size_t> feasible, at;
    feasible.reserve(names.size());
    at.reserve(names.size());
    FilterLocked(info, names, index, slots, verdicts);
    for (size_t i = 0; i < names.size(); ++i) {
      if (!verdicts[i] || !verdicts[i]->passed) continue;
      feasible.push_back(static_cast<size_t>(slots[i]));
      at.push_back(i);
    }
    std::vector<int64_t> scores;
    decisions_->Prioritize(info, view_.cluster(), feasible, scores);
    for (size_t k = 0; k < at.size(); ++k) by_name[at[k]] = scores[k];
  }
  if (metrics_) metrics_->Decision("prioritize", "scored");
  Reply reply{200, EncodeHostScores(names, a.scanned.plain, by_name)};
  RememberNames(a.scanned, index, std::move(slots));
  return reply;
}

}  // namespace gpusched
