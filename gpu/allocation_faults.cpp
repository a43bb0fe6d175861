#include "gpu/allocation_faults.hpp"

#include <charconv>
#include <cstdlib>
#include <mutex>
#include <string>

#include "common/error.hpp"

namespace subscale::gpu {
namespace {

// The one piece of process-wide state: a test hook that must see every allocation, whichever
// stage or thread makes it.
struct FaultCounter {
  std::mutex mutex;
  std::string spec;  // the value the count belongs to
  std::uint64_t count = 0;
};

FaultCounter& counter() {
  static FaultCounter instance;
  return instance;
}

struct FaultSpec {
  std::uint64_t first = 0;
  bool and_later = false;
};

FaultSpec parse_spec(const std::string& text) {
  FaultSpec spec;
  std::string digits = text;
  if (!digits.empty() && digits.back() == '+') {
    spec.and_later = true;
    digits.pop_back();
  }
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), spec.first);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() || spec.first == 0)
    throw UsageError("SUBSCALE_FAIL_DEVICE_ALLOC='" + text +
                     "': expected N (the Nth device allocation fails) or N+ (the Nth and all later), N >= 1");
  return spec;
}

}  // namespace

bool next_device_allocation_fails() {
  const char* value = std::getenv("SUBSCALE_FAIL_DEVICE_ALLOC");
  FaultCounter& state = counter();
  const std::lock_guard lock(state.mutex);
  if (!value || !*value) {
    state.spec.clear();
    state.count = 0;
    return false;
  }
  if (state.spec != value) {
    state.spec = value;
    state.count = 0;
  }
  const FaultSpec spec = parse_spec(state.spec);
  ++state.count;
  return state.count == spec.first || (spec.and_later && state.count > spec.first);
}

void reset_device_allocation_count() {
  FaultCounter& state = counter();
  const std::lock_guard lock(state.mutex);
  state.count = 0;
}

std::uint64_t device_allocations_counted() {
  FaultCounter& state = counter();
  const std::lock_guard lock(state.mutex);
  return state.count;
}

}  // namespace subscale::gpu
