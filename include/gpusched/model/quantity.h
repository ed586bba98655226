// Quantity: a Kubernetes resource quantity ("500m", "64Gi", "1e3", "0.5"),
// parsed with the grammar of k8s.io/apimachinery/pkg/api/resource and printed
// in its canonical form (0.5 prints "500m", 1536Mi stays "1536Mi", 1000 with
// no suffix prints "1k").
//
// The value is kept exactly, as an integer count of nano-units (the finest
// precision Kubernetes keeps; finer input is rounded away from zero, as
// upstream does: "0.9n" is 1n, "-0.9n" is -1n).
// Values whose milli-value does not fit in int64 are rejected at parse time,
// so MilliValue() and Value() can never overflow.
#ifndef GPUSCHED_MODEL_QUANTITY_H_
#define GPUSCHED_MODEL_QUANTITY_H_

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "gpusched/util/status.h"

namespace gpusched {

class Quantity {
 public:
  // The suffix family a quantity was written in; it decides how String()
  // prints it (upstream resource.Format).
  enum class Format { kDecimalSI, kBinarySI, kDecimalExponent };

  Quantity() = default;

  // Parses `text` as upstream resource.ParseQuantity does. On error the
  // message is upstream's: "quantities must match the regular expression
  // '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'", "unable to parse
  // quantity's suffix", or "unable to parse numeric part of quantity"; plus
  // "quantity too large" when the milli-value would not fit in int64.
  static Result<Quantity> Parse(std::string_view text);

  static Quantity FromMilli(int64_t milli, Format format = Format::kDecimalSI);
  static Quantity FromInt(int64_t value, Format format = Format::kDecimalSI);

  // Upstream MilliValue(): value*1000 rounded up, i.e. away from zero
  // (-1.5m gives -2), as upstream's int64 path (negativeScaleInt64) does.
  int64_t MilliValue() const;
  // Upstream Value(): value rounded up, away from zero (-1.5 gives -2).
  int64_t Value() const;

  bool IsZero() const { return nanos_ == 0; }
  int Sign() const { return nanos_ > 0 ? 1 : (nanos_ < 0 ? -1 : 0); }
  Format format() const { return format_; }

  // Upstream Quantity.Add: the value grows by `o`'s; the sum keeps this
  // quantity's format, or takes `o`'s when this one is zero (what
  // addResourceList in component-helpers/resource/helpers.go relies on).
  void Add(const Quantity& o);
  // Upstream Quantity.Sub (the same format rule).
  void Sub(const Quantity& o);

  // Canonical string, as upstream Quantity.String().
  std::string String() const;

  // Compares values only (the format is ignored), like upstream Cmp.
  friend std::strong_ordering operator<=>(const Quantity& a, const Quantity& b) {
    return a.nanos_ <=> b.nanos_;
  }
  friend bool operator==(const Quantity& a, const Quantity& b) { return a.nanos_ == b.nanos_; }

 private:
  __int128 nanos_ = 0;
  Format format_ = Format::kDecimalSI;
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_QUANTITY_H_
