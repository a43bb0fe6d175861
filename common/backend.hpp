#pragma once
// Where a stage runs: one type for every stage. `automatic` is never handed to a stage's CPU or
// CUDA part: the caller resolves it once (gpu::automatic_backend, and the core's size rules in
// stages/core/core.hpp).
#include <optional>
#include <string_view>

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

// The one reader of a backend's name: "cpu", "cuda" or "auto" (gpu/backend_choice.hpp resolves
// "auto"); nullopt for any other word, so that each stage words its own error and keeps its own
// aliases.
inline std::optional<Backend> parse_backend_name(std::string_view name) {
  for (const Backend backend : {Backend::cpu, Backend::cuda, Backend::automatic})
    if (name == backend_name(backend)) return backend;
  return std::nullopt;
}

// A stage's own CPU or CUDA part: "cpu" or "cuda", never "auto".
inline std::optional<Backend> parse_stage_backend_name(std::string_view name) {
  const auto backend = parse_backend_name(name);
  return backend == Backend::automatic ? std::nullopt : backend;
}

}  // namespace subscale
