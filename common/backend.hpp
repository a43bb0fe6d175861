#pragma once
// Where a stage runs: one type for every stage. `automatic` is never handed to a stage's CPU or
// CUDA part: the caller resolves it once (gpu::automatic_backend, and the core's size rules in
// pipeline/core_pipeline.hpp).
namespace subscale {

enum class Backend { cpu, cuda, automatic };

inline const char* backend_name(Backend backend) {
  switch (backend) {
    case Backend::cpu:
      return "cpu";
    case Backend::cuda:
      return "cuda";
    case Backend::automatic:
      return "auto";
  }
  return "?";
}

}  // namespace subscale
