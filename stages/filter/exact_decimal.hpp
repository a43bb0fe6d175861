#pragma once
// Decimal text ("0.05", "-12", "1.5e3") read exactly, so that bounds and constants on scaled
// decimal columns compare and multiply without binary rounding: 0.07 is 7 at scale 2, exactly.
#include <cstdint>
#include <optional>
#include <string>

namespace subscale::filter {

struct ExactDecimal {
  __int128 digits = 0;  // the value is digits / 10^fraction
  int fraction = 0;     // >= 0
};

// std::nullopt when the text is not a plain decimal number or has more than 30 digits.
std::optional<ExactDecimal> parse_exact_decimal(const std::string& text);

// value * 10^scale rounded down / up, saturated to about +-1e36.
__int128 scaled_floor(const ExactDecimal& value, int scale);
__int128 scaled_ceil(const ExactDecimal& value, int scale);

__int128 power_of_ten(int exponent);  // 0 <= exponent <= 36

// A scaled integer as decimal text: (12345, 2) -> "123.45".
std::string format_scaled(__int128 value, int scale);

}  // namespace subscale::filter
