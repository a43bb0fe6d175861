#include "stages/filter/exact_decimal.hpp"

#include <algorithm>
#include <cctype>

namespace subscale::filter {

__int128 power_of_ten(int exponent) {
  __int128 p = 1;
  for (int i = 0; i < exponent; ++i) p *= 10;
  return p;
}

std::optional<ExactDecimal> parse_exact_decimal(const std::string& text) {
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  ExactDecimal value;
  int digits = 0;
  bool any = false, point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    any = true;
    if (value.digits != 0 || c != '0') ++digits;
    if (digits > 30) return std::nullopt;
    value.digits = value.digits * 10 + (c - '0');
    if (point) ++value.fraction;
  }
  if (!any) return std::nullopt;
  int exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exponent_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) exponent_negative = text[i++] == '-';
    if (i == text.size()) return std::nullopt;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      exponent = exponent * 10 + (text[i] - '0');
      if (exponent > 60) return std::nullopt;
    }
    if (exponent_negative) exponent = -exponent;
  }
  if (i != text.size()) return std::nullopt;
  value.fraction -= exponent;
  if (value.fraction < 0) {
    if (digits - value.fraction > 36) return std::nullopt;
    value.digits *= power_of_ten(-value.fraction);
    value.fraction = 0;
  }
  if (value.fraction > 36) return std::nullopt;
  if (negative) value.digits = -value.digits;
  return value;
}

namespace {
constexpr int max_digits = 36;

__int128 saturate_multiply(__int128 digits, int exponent) {
  const __int128 limit = power_of_ten(max_digits);
  for (int i = 0; i < exponent; ++i) {
    if (digits > limit / 10) return limit;
    if (digits < -limit / 10) return -limit;
    digits *= 10;
  }
  return digits;
}
}  // namespace

__int128 scaled_floor(const ExactDecimal& value, int scale) {
  if (scale >= value.fraction) return saturate_multiply(value.digits, scale - value.fraction);
  const __int128 divisor = power_of_ten(value.fraction - scale);
  __int128 quotient = value.digits / divisor;
  if (value.digits % divisor != 0 && value.digits < 0) --quotient;
  return quotient;
}

__int128 scaled_ceil(const ExactDecimal& value, int scale) {
  if (scale >= value.fraction) return saturate_multiply(value.digits, scale - value.fraction);
  const __int128 divisor = power_of_ten(value.fraction - scale);
  __int128 quotient = value.digits / divisor;
  if (value.digits % divisor != 0 && value.digits > 0) ++quotient;
  return quotient;
}

std::string format_scaled(__int128 value, int scale) {
  const bool negative = value < 0;
  unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(value) : value;
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  while (static_cast<int>(digits.size()) <= scale) digits.push_back('0');
  std::reverse(digits.begin(), digits.end());
  if (scale > 0) digits.insert(digits.end() - scale, '.');
  return negative ? "-" + digits : digits;
}

}  // namespace subscale::filter
