#pragma once
// The project's hash functions, one definition for host and device (same bits on CPU and GPU).
// Every part of the project that hashes (signature table, subspace grouping, join, the hash
// stage) calls these; there is no second copy of hash code anywhere.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "common/host_device.hpp"

namespace subscale::hash {

// The murmur3 64-bit finaliser: a strong, cheap mixer of one 64-bit word.
SUBSCALE_HD std::uint64_t fmix64(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

// ---- FNV-1a (Fowler/Noll/Vo), byte-wise ------------------------------------------------------
// FNV-1a consumes one byte at a time: h ^= byte; h *= prime. The word versions feed the four
// little-endian bytes of each 32-bit word (lowest byte first), so hashing a record of words gives
// the same value as hashing its in-memory bytes on a little-endian machine (x86, every NVIDIA GPU).
inline constexpr std::uint32_t kFnv32Offset = 0x811C9DC5u;
inline constexpr std::uint32_t kFnv32Prime = 0x01000193u;
inline constexpr std::uint64_t kFnv64Offset = 0xCBF29CE484222325ULL;
inline constexpr std::uint64_t kFnv64Prime = 0x100000001B3ULL;

SUBSCALE_HD std::uint32_t fnv1a32_step(std::uint32_t h, std::uint32_t byte) { return (h ^ byte) * kFnv32Prime; }
SUBSCALE_HD std::uint64_t fnv1a64_step(std::uint64_t h, std::uint64_t byte) { return (h ^ byte) * kFnv64Prime; }

// Byte strings (the published test vectors are defined on bytes).
SUBSCALE_HD std::uint32_t fnv1a32_bytes(const unsigned char* bytes, std::size_t count) {
  std::uint32_t h = kFnv32Offset;
  for (std::size_t i = 0; i < count; ++i) h = fnv1a32_step(h, bytes[i]);
  return h;
}
SUBSCALE_HD std::uint64_t fnv1a64_bytes(const unsigned char* bytes, std::size_t count) {
  std::uint64_t h = kFnv64Offset;
  for (std::size_t i = 0; i < count; ++i) h = fnv1a64_step(h, bytes[i]);
  return h;
}

// One 32-bit word folded into a running FNV-1a state, low byte first.
SUBSCALE_HD std::uint32_t fnv1a32_word(std::uint32_t h, std::uint32_t w) {
  h = fnv1a32_step(h, w & 0xFFu);
  h = fnv1a32_step(h, (w >> 8) & 0xFFu);
  h = fnv1a32_step(h, (w >> 16) & 0xFFu);
  return fnv1a32_step(h, w >> 24);
}
SUBSCALE_HD std::uint64_t fnv1a64_word(std::uint64_t h, std::uint32_t w) {
  h = fnv1a64_step(h, w & 0xFFu);
  h = fnv1a64_step(h, (w >> 8) & 0xFFu);
  h = fnv1a64_step(h, (w >> 16) & 0xFFu);
  return fnv1a64_step(h, w >> 24);
}

// A record of `count` 32-bit words (its little-endian bytes).
SUBSCALE_HD std::uint32_t fnv1a32_words(const std::uint32_t* words, int count) {
  std::uint32_t h = kFnv32Offset;
  for (int i = 0; i < count; ++i) h = fnv1a32_word(h, words[i]);
  return h;
}
SUBSCALE_HD std::uint64_t fnv1a64_words(const std::uint32_t* words, int count) {
  std::uint64_t h = kFnv64Offset;
  for (int i = 0; i < count; ++i) h = fnv1a64_word(h, words[i]);
  return h;
}

// The 8 little-endian bytes of a 64-bit key (e.g. a join key): low word first, then high word.
SUBSCALE_HD std::uint64_t fnv1a64_u64(std::uint64_t key) {
  std::uint64_t h = fnv1a64_word(kFnv64Offset, static_cast<std::uint32_t>(key));
  return fnv1a64_word(h, static_cast<std::uint32_t>(key >> 32));
}

// ---- Bit helpers: one name, the intrinsic on the device, portable code on the host ----------
// The HW variants of the seed use __funnelshift_l (rotate) and __brev (bit reversal). The host
// versions below compute exactly the same bits, so CPU and GPU hashes agree.

// Rotate left by s mod 32 (what __funnelshift_l(x, x, s) computes: it masks s to 0..31).
SUBSCALE_HD std::uint32_t rotl32(std::uint32_t x, std::uint32_t s) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_l(x, x, s);
#else
  s &= 31u;
  return (x << s) | (x >> ((32u - s) & 31u));
#endif
}

SUBSCALE_HD std::uint32_t bit_reverse32(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __brev(x);
#else
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
  return (x >> 16) | (x << 16);
#endif
}

SUBSCALE_HD std::uint64_t bit_reverse64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __brevll(x);
#else
  return (static_cast<std::uint64_t>(bit_reverse32(static_cast<std::uint32_t>(x))) << 32) |
         bit_reverse32(static_cast<std::uint32_t>(x >> 32));
#endif
}

template <class H>
SUBSCALE_HD H bit_reverse(H x) {
  if constexpr (sizeof(H) == 4)
    return bit_reverse32(x);
  else
    return bit_reverse64(x);
}

// ---- The strong mixer over a record ----------------------------------------------------------
// Words are taken in pairs as 64-bit chunks (low word first; an odd last word alone), each folded
// in by h = fmix64(h ^ chunk). Every step is a bijection of the chunk, so a one- or two-word
// record never collides at 64 bits. The start value is not 0 because fmix64(0) == 0.
inline constexpr std::uint64_t kFmixRecordStart = 0x9E3779B97F4A7C15ULL;

SUBSCALE_HD std::uint64_t fmix64_words(const std::uint32_t* words, int count) {
  std::uint64_t h = kFmixRecordStart;
  int i = 0;
  for (; i + 1 < count; i += 2) h = fmix64(h ^ (words[i] | (static_cast<std::uint64_t>(words[i + 1]) << 32)));
  if (i < count) h = fmix64(h ^ words[i]);
  return h;
}

// A set of dimensions (ascending ids) as a key: the count, then each id folded in by fmix64.
// Keys the subspace tables on the host and the device alike.
SUBSCALE_HD std::uint64_t fmix64_dimensions(const std::uint32_t* dims, std::uint32_t count) {
  std::uint64_t h = count;
  for (std::uint32_t i = 0; i < count; ++i) h = fmix64(h ^ dims[i]);
  return h;
}

// ---- The seed's families: Add, Mult, XOR, Mult-XOR, each plain, Shift and HW ---------------
// The seed (a thesis on GPU hashing) defines them over "octets"; its GPU kernels use 32-bit words
// as the octets, and so do these. H (uint32_t or uint64_t) is the hash width; all arithmetic is
// modulo 2^W. `rounds` >= 1 repeats the loop over the record with the state (hash, shift offset,
// word index) carried on: the seed's N-round ("n_") versions.
//
//   family    start  step for word x (t: x after the variant's shift, f: x + 1 shifted)
//   add       0      h = h + t
//   mult      1      h = 1 + h * f                 (the +1s keep zero words and zero states from
//   xor       0      h = h ^ t                      collapsing the product to 0)
//   mult_xor  1      even word index: h = 1 + h * f; odd: h = h ^ t
//
// Variants:
//   plain  t = x, f = x + 1.
//   shift  off = (off + x) mod (W - 31); t = x << off, f = (x + 1) << off. The offset is limited
//          so a 32-bit word is never shifted out of the hash (the seed's rule); at W = 32 the
//          offset is therefore always 0 and the Shift variant equals the plain one, as in the seed.
//   hw     off = off + x (the full word, the seed's later choice; +1 piled small values at the
//          edges); r = rotl32(x, off) (__funnelshift_l); t = r, f = r + 1; after the step the
//          whole hash is bit-reversed (__brev / __brevll) so low and high bits trade places.
enum class SeedFamily { add, mult, xor_, mult_xor };
enum class SeedVariant { plain, shift, hw };

template <SeedFamily Family, SeedVariant Variant, class H>
SUBSCALE_HD H seed_hash_words(const std::uint32_t* words, int count, int rounds) {
  static_assert(std::is_same_v<H, std::uint32_t> || std::is_same_v<H, std::uint64_t>, "32- or 64-bit hashes");
  constexpr bool kStartsAtOne = Family == SeedFamily::mult || Family == SeedFamily::mult_xor;
  constexpr std::uint32_t kShiftRange = sizeof(H) * 8 - 31;  // offsets 0 .. W-32
  H h = kStartsAtOne ? H{1} : H{0};
  std::uint32_t offset = 0;
  unsigned index = 0;
  for (int round = 0; round < rounds; ++round) {
    for (int i = 0; i < count; ++i, ++index) {
      const std::uint32_t x = words[i];
      H term;    // the word as added / xored
      H factor;  // the word as multiplied
      if constexpr (Variant == SeedVariant::plain) {
        term = x;
        factor = static_cast<H>(x) + 1;
      } else if constexpr (Variant == SeedVariant::shift) {
        if constexpr (kShiftRange == 1) {
          term = x;
          factor = static_cast<H>(x) + 1;
        } else {
          offset = static_cast<std::uint32_t>((static_cast<std::uint64_t>(offset) + x) % kShiftRange);
          term = static_cast<H>(x) << offset;
          factor = (static_cast<H>(x) + 1) << offset;
        }
      } else {
        offset += x;
        const std::uint32_t r = rotl32(x, offset);
        term = r;
        factor = static_cast<H>(r) + 1;
      }
      if constexpr (Family == SeedFamily::add) {
        h += term;
      } else if constexpr (Family == SeedFamily::mult) {
        h = 1 + h * factor;
      } else if constexpr (Family == SeedFamily::xor_) {
        h ^= term;
      } else {
        if (index & 1u)
          h ^= term;
        else
          h = 1 + h * factor;
      }
      if constexpr (Variant == SeedVariant::hw) h = bit_reverse(h);
    }
  }
  return h;
}

// ---- Every function by id: what the hash stage and its users call --------------------------
// The ids, their names and the parser live in hash_function_id.hpp; this is the compute side.
enum class HashFunction : int {
  fnv1a,
  add,
  add_shift,
  add_hw,
  mult,
  mult_shift,
  mult_hw,
  xor_,
  xor_shift,
  xor_hw,
  mult_xor,
  mult_xor_shift,
  mult_xor_hw,
  fmix64,
};
inline constexpr int kHashFunctionCount = 14;

// One record of `count` words hashed to H bits by function F. `rounds` only matters for the
// seed's families (their N-round versions); FNV-1a and fmix64 ignore it.
template <HashFunction F, class H>
SUBSCALE_HD H hash_words(const std::uint32_t* words, int count, int rounds = 1) {
  static_assert(std::is_same_v<H, std::uint32_t> || std::is_same_v<H, std::uint64_t>, "32- or 64-bit hashes");
  using enum HashFunction;
  constexpr bool k64 = sizeof(H) == 8;
  if constexpr (F == fnv1a) {
    if constexpr (k64)
      return fnv1a64_words(words, count);
    else
      return fnv1a32_words(words, count);
  } else if constexpr (F == fmix64) {
    return static_cast<H>(fmix64_words(words, count));  // 32 bits: the low half
  } else {
    constexpr SeedFamily family = (F == add || F == add_shift || F == add_hw)      ? SeedFamily::add
                                  : (F == mult || F == mult_shift || F == mult_hw) ? SeedFamily::mult
                                  : (F == xor_ || F == xor_shift || F == xor_hw)   ? SeedFamily::xor_
                                                                                   : SeedFamily::mult_xor;
    constexpr SeedVariant variant =
        (F == add_shift || F == mult_shift || F == xor_shift || F == mult_xor_shift) ? SeedVariant::shift
        : (F == add_hw || F == mult_hw || F == xor_hw || F == mult_xor_hw)           ? SeedVariant::hw
                                                                                     : SeedVariant::plain;
    return seed_hash_words<family, variant, H>(words, count, rounds);
  }
}

// Calls fn(std::integral_constant<HashFunction, F>{}) for the run-time id f, so a caller can
// instantiate a loop or a kernel per function and keep the switch out of its inner loop.
template <class Fn>
SUBSCALE_HD decltype(auto) with_hash_function(HashFunction f, Fn&& fn) {
  using enum HashFunction;
  switch (f) {
    case fnv1a:
      return fn(std::integral_constant<HashFunction, fnv1a>{});
    case add:
      return fn(std::integral_constant<HashFunction, add>{});
    case add_shift:
      return fn(std::integral_constant<HashFunction, add_shift>{});
    case add_hw:
      return fn(std::integral_constant<HashFunction, add_hw>{});
    case mult:
      return fn(std::integral_constant<HashFunction, mult>{});
    case mult_shift:
      return fn(std::integral_constant<HashFunction, mult_shift>{});
    case mult_hw:
      return fn(std::integral_constant<HashFunction, mult_hw>{});
    case xor_:
      return fn(std::integral_constant<HashFunction, xor_>{});
    case xor_shift:
      return fn(std::integral_constant<HashFunction, xor_shift>{});
    case xor_hw:
      return fn(std::integral_constant<HashFunction, xor_hw>{});
    case mult_xor:
      return fn(std::integral_constant<HashFunction, mult_xor>{});
    case mult_xor_shift:
      return fn(std::integral_constant<HashFunction, mult_xor_shift>{});
    case mult_xor_hw:
      return fn(std::integral_constant<HashFunction, mult_xor_hw>{});
    case fmix64:
      break;
  }
  return fn(std::integral_constant<HashFunction, fmix64>{});
}

// The run-time form, for callers that hash a few records (analysis, tests, host code).
template <class H>
SUBSCALE_HD H hash_words(HashFunction f, const std::uint32_t* words, int count, int rounds = 1) {
  return with_hash_function(f, [&](auto id) { return hash_words<decltype(id)::value, H>(words, count, rounds); });
}

}  // namespace subscale::hash
