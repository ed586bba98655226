#include "gpusched/server/answer_writer.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>

#include "gpusched/server/go_json.h"
#include "gpusched/server/wire.h"

namespace gpusched {
namespace {

void AppendName(std::string& out, std::string_view name, bool plain) {
  if (plain) {
    out += '"';
    out.append(name);
    out += '"';
  } else {
    AppendGoJsonString(out, name);
  }
}

// A Go map[string]string of `failures`: keys sorted, one entry per name.
void AppendFailures(std::string& out, const std::vector<std::string_view>& names, bool plain,
                    const std::vector<FilterNamesAnswer::Failure>& failures, size_t num_ranks,
                    const std::vector<std::string>& reasons) {
  using Failure = FilterNamesAnswer::Failure;
  // Ranked names in rank order through a bitmap (a name named twice is one
  // bit); the unranked ones sorted as strings, stable so that of a name
  // named twice the later entry is the one a map keeps (both carry the same
  // verdict).
  std::vector<uint64_t> bits;
  std::vector<uint32_t> at_rank;
  std::vector<Failure> unranked;
  for (const Failure& f : failures) {
    if (f.rank == FilterNamesAnswer::kNoRank) {
      unranked.push_back(f);
      continue;
    }
    if (bits.empty()) {
      bits.assign((num_ranks + 63) / 64, 0);
      at_rank.resize(num_ranks);
    }
    bits[f.rank / 64] |= uint64_t{1} << (f.rank % 64);
    at_rank[f.rank] = static_cast<uint32_t>(&f - failures.data());
  }
  std::stable_sort(unranked.begin(), unranked.end(),
                   [&](const Failure& a, const Failure& b) { return names[a.at] < names[b.at]; });
  out += '{';
  bool first = true;
  auto write = [&](const Failure& f) {
    if (!first) out += ',';
    first = false;
    AppendName(out, names[f.at], plain);
    out += ':';
    out += reasons[f.reason];
  };
  size_t u = 0;
  auto unranked_before = [&](std::string_view name) {
    // Writes the unranked names before `name`, one entry per name.
    for (; u < unranked.size() && names[unranked[u].at] < name; ++u)
      if (u + 1 == unranked.size() || names[unranked[u + 1].at] != names[unranked[u].at]) write(unranked[u]);
  };
  for (size_t w = 0; w < bits.size(); ++w) {
    for (uint64_t word = bits[w]; word; word &= word - 1) {
      const Failure& f = failures[at_rank[w * 64 + static_cast<size_t>(std::countr_zero(word))]];
      if (u < unranked.size()) unranked_before(names[f.at]);
      write(f);
    }
  }
  for (; u < unranked.size(); ++u)
    if (u + 1 == unranked.size() || names[unranked[u + 1].at] != names[unranked[u].at]) write(unranked[u]);
  out += '}';
}

}  // namespace

void FilterNamesAnswer::Fail(size_t at, std::string_view reason, bool unresolvable, uint32_t rank) {
  // Most failures repeat the reason before them; a few distinct ones are
  // looked up in turn.
  if (reasons_.empty() || reasons_[last_reason_] != reason) {
    size_t k = 0;
    while (k < reasons_.size() && reasons_[k] != reason) ++k;
    if (k == reasons_.size()) reasons_.emplace_back(reason);
    last_reason_ = static_cast<uint32_t>(k);
  }
  (unresolvable ? unresolvable_ : failed_).push_back(Failure{static_cast<uint32_t>(at), last_reason_, rank});
}

std::string EncodeFilterNames(const std::vector<std::string_view>& names, bool plain, const FilterNamesAnswer& answer,
                              NameList* list) {
  static constexpr std::string_view kHead = "{\"Nodes\":null,\"NodeNames\":";
  const std::vector<uint32_t>& passed = answer.passed();
  std::vector<std::string> reasons;  // as JSON strings
  reasons.reserve(answer.reasons().size());
  for (const std::string& r : answer.reasons()) reasons.push_back(GoJsonString(r));
  size_t array = 2;  // the NodeNames array, exactly when plain
  for (uint32_t at : passed) array += names[at].size() + 3;
  size_t rest = 128;
  for (const auto* f : {&answer.failed(), &answer.unresolvable()})
    for (const FilterNamesAnswer::Failure& x : *f) rest += names[x.at].size() + 4 + reasons[x.reason].size();

  std::string out;
  const size_t array_at = kHead.size();
  if (list) {
    list->names.clear();
    list->names.reserve(passed.size());
  }
  if (plain) {
    // Written in place: thousands of names, each a copy.
    out.resize(array_at + array);
    std::memcpy(out.data(), kHead.data(), kHead.size());
    char* w = out.data() + array_at;
    *w++ = '[';
    for (size_t i = 0; i < passed.size(); ++i) {
      const std::string_view name = names[passed[i]];
      if (i) *w++ = ',';
      *w++ = '"';
      if (list) list->names.emplace_back(static_cast<uint32_t>(w - out.data() - array_at), static_cast<uint32_t>(name.size()));
      std::memcpy(w, name.data(), name.size());
      w += name.size();
      *w++ = '"';
    }
    *w++ = ']';
    out.resize(static_cast<size_t>(w - out.data()));
    out.reserve(out.size() + rest);
  } else {
    out.reserve(array_at + array + rest);
    out += kHead;
    out += '[';
    for (size_t i = 0; i < passed.size(); ++i) {
      if (i) out += ',';
      if (list) list->names.emplace_back(static_cast<uint32_t>(out.size() + 1 - array_at), static_cast<uint32_t>(names[passed[i]].size()));
      AppendGoJsonString(out, names[passed[i]]);
    }
    out += ']';
  }
  if (list) {
    list->text.assign(out, array_at, out.size() - array_at);
    list->plain = plain;
  }
  out += ",\"FailedNodes\":";
  AppendFailures(out, names, plain, answer.failed(), answer.num_ranks(), reasons);
  out += ",\"FailedAndUnresolvableNodes\":";
  AppendFailures(out, names, plain, answer.unresolvable(), answer.num_ranks(), reasons);
  out += ",\"Error\":\"\"}";
  return out;
}

std::string EncodeHostScores(const std::vector<std::string_view>& names, bool plain,
                             const std::vector<int64_t>& scores) {
  static constexpr std::string_view kHost = "{\"Host\":\"", kScore = "\",\"Score\":";
  if (!plain) {
    std::vector<HostPriority> list(names.size());
    for (size_t i = 0; i < names.size(); ++i) list[i] = HostPriority{names[i], scores[i]};
    return EncodeHostPriorityList(list);
  }
  size_t size = 2;
  for (std::string_view n : names) size += n.size() + kHost.size() + kScore.size() + 2 + 20;
  std::string out(size, '\0');
  char* w = out.data();
  *w++ = '[';
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) *w++ = ',';
    std::memcpy(w, kHost.data(), kHost.size());
    w += kHost.size();
    std::memcpy(w, names[i].data(), names[i].size());
    w += names[i].size();
    std::memcpy(w, kScore.data(), kScore.size());
    w += kScore.size();
    const int64_t s = scores[i];
    if (s >= 0 && s <= 9) {
      *w++ = static_cast<char>('0' + s);
    } else {
      w = std::to_chars(w, w + 20, s).ptr;
    }
    *w++ = '}';
  }
  *w++ = ']';
  out.resize(static_cast<size_t>(w - out.data()));
  return out;
}

}  // namespace gpusched
