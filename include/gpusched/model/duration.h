// Durations as users write them in gpusched's own annotations: a number of
// seconds ("90", "1.5", ".5") or a Go duration ("90s", "5m", "1h30m",
// "250ms": a sequence of decimal numbers each with a unit ns, us (or µs), ms,
// s, m, h, as time.ParseDuration reads them, without its sign).
#ifndef GPUSCHED_MODEL_DURATION_H_
#define GPUSCHED_MODEL_DURATION_H_

#include <optional>
#include <string_view>

namespace gpusched {

// Seconds, or nullopt for anything else: a sign, exponents, spaces, NaN,
// infinity and "" (so a negative duration cannot be written), and results
// that overflow a double.
std::optional<double> ParseDurationSeconds(std::string_view text);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_DURATION_H_
