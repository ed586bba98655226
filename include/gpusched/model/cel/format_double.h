// Go's strconv formatting and parsing of float64, which cel-go uses for
// string(double) (FormatFloat(d, 'g', -1, 64): "1.5", "1e+06") and
// double(string) (ParseFloat).
#ifndef GPUSCHED_MODEL_CEL_FORMAT_DOUBLE_H_
#define GPUSCHED_MODEL_CEL_FORMAT_DOUBLE_H_

#include <optional>
#include <string>

namespace gpusched::cel {

std::string FormatDoubleGo(double d);
std::optional<double> ParseDoubleGo(const std::string& s);

}  // namespace gpusched::cel

#endif  // GPUSCHED_MODEL_CEL_FORMAT_DOUBLE_H_
