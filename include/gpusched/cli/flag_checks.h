// Validators for the values of gpusched's flags, run by CLI11 while parsing
// (before any input is read). Each failure names the value and its valid
// range; CLI11 puts the flag's name in front: `--jobs: invalid value "0":
// must be a whole number from 1 to 256`.
#ifndef GPUSCHED_CLI_FLAG_CHECKS_H_
#define GPUSCHED_CLI_FLAG_CHECKS_H_

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace gpusched {

// A whole number in [min, max], digits only (no sign, no fraction).
CLI::Validator WholeNumber(uint64_t min, uint64_t max);

// A finite decimal number in [min, max]; `what` says what it counts
// ("a number of seconds", "a multiple of GPU capacity"); `note` follows the
// range ("(0: off)"). An infinite `max` is no upper bound.
CLI::Validator Number(double min, double max, const std::string& what, const std::string& note = "");

// A whole number of 1 or more, or "all".
CLI::Validator CountOrAll();

// "all" or a count, as CountOrAll() accepts it; "all" is SIZE_MAX.
size_t ParseCountOrAll(const std::string& text);

}  // namespace gpusched

#endif  // GPUSCHED_CLI_FLAG_CHECKS_H_
