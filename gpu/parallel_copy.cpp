#include "gpu/parallel_copy.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>

namespace subscale::gpu {

void parallel_copy(void* out, const void* in, std::size_t bytes) {
  constexpr std::size_t piece = std::size_t{1} << 20;
  auto* to = static_cast<unsigned char*>(out);
  const auto* from = static_cast<const unsigned char*>(in);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, (bytes + piece - 1) / piece),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i != r.end(); ++i) {
                        const std::size_t begin = i * piece;
                        std::memcpy(to + begin, from + begin, std::min(piece, bytes - begin));
                      }
                    });
}

}  // namespace subscale::gpu
