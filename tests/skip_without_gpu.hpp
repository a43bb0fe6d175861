#pragma once
// GPU tests skip, saying why, where there is no usable CUDA device (CI has none).
#include <gtest/gtest.h>

#include "gpu/device_info.hpp"

#define SKIP_WITHOUT_GPU()                                                      \
  do {                                                                          \
    const auto device = ::subscale::gpu::query_device();                        \
    if (!device.available) GTEST_SKIP() << "no CUDA device: " << device.reason; \
  } while (0)
