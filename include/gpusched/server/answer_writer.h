// The fast path's response writers for /filter and /prioritize by node
// names: the answer is kept as positions in the request's names (no copy of a
// name, no map of thousands of strings) and written straight into the body,
// byte for byte what EncodeFilterResult and EncodeHostPriorityList
// (server/wire.h, the reference) write for the same answer; the wire tests
// and tests/server/answer_writer_test.cc hold them to it.
//
// FailedNodes and FailedAndUnresolvableNodes are Go maps: json.Marshal sorts
// their keys (byte order) and a name named twice is one key. A failed node
// the view knows comes with its name's rank (NodeNameIndex::Rank), so that
// thousands of them are put in order without comparing names; the few names
// the view does not know are sorted as strings and merged in. Reasons are
// interned per answer: a filter fails thousands of nodes for a handful of
// reasons.
#ifndef GPUSCHED_SERVER_ANSWER_WRITER_H_
#define GPUSCHED_SERVER_ANSWER_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/server/args_scanner.h"

namespace gpusched {

class FilterNamesAnswer {
 public:
  static constexpr uint32_t kNoRank = UINT32_MAX;
  struct Failure {
    uint32_t at;      // position in the request's names
    uint32_t reason;  // index into reasons()
    uint32_t rank;    // of the name, below num_ranks; kNoRank: unranked
  };

  // Ranks are below `num_ranks`, and equal for equal names only.
  explicit FilterNamesAnswer(size_t num_ranks = 0) : num_ranks_(num_ranks) {}

  void Reserve(size_t names) { passed_.reserve(names); }
  void Pass(size_t at) { passed_.push_back(static_cast<uint32_t>(at)); }
  // FailedNodes (unresolvable: FailedAndUnresolvableNodes).
  void Fail(size_t at, std::string_view reason, bool unresolvable, uint32_t rank = kNoRank);

  size_t num_ranks() const { return num_ranks_; }
  const std::vector<uint32_t>& passed() const { return passed_; }
  const std::vector<Failure>& failed() const { return failed_; }
  const std::vector<Failure>& unresolvable() const { return unresolvable_; }
  const std::vector<std::string>& reasons() const { return reasons_; }

 private:
  std::vector<uint32_t> passed_;
  std::vector<Failure> failed_, unresolvable_;
  std::vector<std::string> reasons_;
  uint32_t last_reason_ = 0;
  size_t num_ranks_;
};

// ExtenderFilterResult with NodeNames (Nodes null, Error ""). `names` are the
// request's names; `plain`: none needs escaping (NameList::plain). With
// `list`, the written NodeNames array is also described there (text, names,
// plain; not its slots) for the NameListCache: kube-scheduler sends it back
// to /prioritize.
std::string EncodeFilterNames(const std::vector<std::string_view>& names, bool plain, const FilterNamesAnswer& answer,
                              NameList* list = nullptr);

// HostPriorityList: names[i] with scores[i], in request order.
std::string EncodeHostScores(const std::vector<std::string_view>& names, bool plain,
                             const std::vector<int64_t>& scores);

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_ANSWER_WRITER_H_
