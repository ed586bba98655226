#include "gpusched/run/setting.h"

#include "gpusched/util/did_you_mean.h"

namespace gpusched {

std::string ConceptName(Setting s) {
  switch (s) {
    case Setting::kPolicy:
      return "policy";
    case Setting::kOrder:
      return "queue order";
    case Setting::kSeed:
      return "seed";
    case Setting::kConfig:
      return "configuration";
    case Setting::kFeatureGates:
      return "feature gates";
    case Setting::kSchedulerName:
      return "scheduler name";
    case Setting::kPreemptGangs:
      return "gang preemption";
  }
  return "";
}

SettingText& SettingText::operator<<(std::string_view text) {
  if (text.empty()) return *this;
  if (!parts_.empty() && std::holds_alternative<std::string>(parts_.back())) {
    std::get<std::string>(parts_.back()) += text;
  } else {
    parts_.emplace_back(std::string(text));
  }
  return *this;
}

SettingText& SettingText::operator<<(Setting s) {
  parts_.emplace_back(s);
  return *this;
}

SettingText& SettingText::operator<<(const SettingText& other) {
  for (const auto& p : other.parts_) {
    if (const std::string* text = std::get_if<std::string>(&p)) {
      *this << *text;
    } else {
      *this << std::get<Setting>(p);
    }
  }
  return *this;
}

SettingText UnknownNameText(const SettingText& what, std::string_view name, const std::vector<std::string>& known) {
  std::string list;
  for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
  const std::string near = DidYouMean(NearNames(name, known));
  SettingText m;
  m << "unknown " << what << " \"" << name << "\" (" << (near.empty() ? "" : near + " ") << "known: " << list << ")";
  return m;
}

std::vector<std::string> SplitNameList(std::string_view list) {
  std::vector<std::string> out;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    while (item.starts_with(' ')) item.remove_prefix(1);
    if (!item.empty()) out.emplace_back(item);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return out;
}

std::string SettingText::Render(SettingNamer name) const {
  std::string out;
  for (const auto& p : parts_) {
    if (const std::string* text = std::get_if<std::string>(&p)) {
      out += *text;
    } else {
      out += name(std::get<Setting>(p));
    }
  }
  return out;
}

}  // namespace gpusched
