// The shared hash functions: FNV-1a against its published vectors, the seed's families against
// independent reference code written from the seed's pseudocode, the bit helpers, the names.
#include "gpu/hash/hash_functions.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gpu/hash/hash_function_id.hpp"

namespace subscale::hash {
namespace {

std::uint32_t fnv32(const std::string& s) {
  return fnv1a32_bytes(reinterpret_cast<const unsigned char*>(s.data()), s.size());
}
std::uint64_t fnv64(const std::string& s) {
  return fnv1a64_bytes(reinterpret_cast<const unsigned char*>(s.data()), s.size());
}

TEST(Fnv1a, PublishedVectors) {
  EXPECT_EQ(fnv32(""), 0x811C9DC5u);
  EXPECT_EQ(fnv32("a"), 0xE40C292Cu);
  EXPECT_EQ(fnv32("foobar"), 0xBF9CF968u);
  EXPECT_EQ(fnv64(""), 0xCBF29CE484222325ull);
  EXPECT_EQ(fnv64("a"), 0xAF63DC4C8601EC8Cull);
  EXPECT_EQ(fnv64("foobar"), 0x85944171F73967E8ull);
}

TEST(Fnv1a, WordsAreTheirLittleEndianBytes) {
  std::mt19937_64 rng(7);
  for (int count = 0; count <= 9; ++count) {
    std::vector<std::uint32_t> words(count);
    for (auto& w : words) w = static_cast<std::uint32_t>(rng());
    std::vector<unsigned char> bytes;
    for (auto w : words)
      for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<unsigned char>(w >> (8 * b)));
    EXPECT_EQ(fnv1a32_words(words.data(), count), fnv1a32_bytes(bytes.data(), bytes.size()));
    EXPECT_EQ(fnv1a64_words(words.data(), count), fnv1a64_bytes(bytes.data(), bytes.size()));
    EXPECT_EQ((hash_words<HashFunction::fnv1a, std::uint32_t>(words.data(), count)),
              fnv1a32_bytes(bytes.data(), bytes.size()));
  }
  const std::uint64_t key = 0x0123456789ABCDEFull;
  unsigned char key_bytes[8];
  for (int b = 0; b < 8; ++b) key_bytes[b] = static_cast<unsigned char>(key >> (8 * b));
  EXPECT_EQ(fnv1a64_u64(key), fnv1a64_bytes(key_bytes, 8));
}

TEST(BitHelpers, MatchReferenceCode) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 2000; ++i) {
    const auto x = static_cast<std::uint32_t>(rng());
    const auto s = static_cast<std::uint32_t>(rng());
    EXPECT_EQ(rotl32(x, s), std::rotl(x, static_cast<int>(s % 32)));
    std::uint32_t r32 = 0;
    for (int b = 0; b < 32; ++b) r32 |= ((x >> b) & 1u) << (31 - b);
    EXPECT_EQ(bit_reverse32(x), r32);
    const std::uint64_t y = rng();
    std::uint64_t r64 = 0;
    for (int b = 0; b < 64; ++b) r64 |= ((y >> b) & 1ull) << (63 - b);
    EXPECT_EQ(bit_reverse64(y), r64);
  }
}

// Reference implementations, written from the seed's pseudocode (Algorithms 3-9) independently of
// the header's shared template, with the header's documented choices (offsets modulo W-31 for
// Shift, offset += word for HW, word index parity for Mult-XOR).
template <class H>
H bitrev(H x) {
  H r = 0;
  for (unsigned b = 0; b < sizeof(H) * 8; ++b) r |= static_cast<H>((x >> b) & 1u) << (sizeof(H) * 8 - 1 - b);
  return r;
}

template <class H>
H reference(HashFunction f, const std::vector<std::uint32_t>& words, int rounds) {
  const std::string name(hash_function_name(f));
  const bool shift = name.ends_with("_shift");
  const bool hw = name.ends_with("_hw");
  const std::string family = shift ? name.substr(0, name.size() - 6) : hw ? name.substr(0, name.size() - 3) : name;
  const std::uint64_t range = sizeof(H) * 8 - 31;
  H h = (family == "mult" || family == "mult_xor") ? 1 : 0;
  std::uint64_t offset = 0;
  std::uint64_t index = 0;
  for (int round = 0; round < rounds; ++round) {
    for (std::uint32_t x : words) {
      H term = x;
      H factor = static_cast<H>(static_cast<H>(x) + 1);
      if (shift) {
        offset = (offset + x) % range;
        term = static_cast<H>(static_cast<H>(x) << offset);
        factor = static_cast<H>(factor << offset);
      } else if (hw) {
        offset = (offset + x) % (std::uint64_t{1} << 32);
        const std::uint32_t rotated = std::rotl(x, static_cast<int>(offset % 32));
        term = rotated;
        factor = static_cast<H>(static_cast<H>(rotated) + 1);
      }
      if (family == "add")
        h = static_cast<H>(h + term);
      else if (family == "mult")
        h = static_cast<H>(1 + h * factor);
      else if (family == "xor")
        h ^= term;
      else if (index % 2 == 1)
        h ^= term;
      else
        h = static_cast<H>(1 + h * factor);
      if (hw) h = bitrev(h);
      ++index;
    }
  }
  return h;
}

const HashFunction kSeedFunctions[] = {
    HashFunction::add,        HashFunction::add_shift, HashFunction::add_hw,         HashFunction::mult,
    HashFunction::mult_shift, HashFunction::mult_hw,   HashFunction::xor_,           HashFunction::xor_shift,
    HashFunction::xor_hw,     HashFunction::mult_xor,  HashFunction::mult_xor_shift, HashFunction::mult_xor_hw,
};

TEST(SeedFamilies, MatchReferenceForEveryWidthAndRounds) {
  std::mt19937_64 rng(11);
  for (HashFunction f : kSeedFunctions) {
    for (int count : {1, 2, 3, 4, 7, 16}) {
      for (int rounds : {1, 2, 3}) {
        std::vector<std::uint32_t> words(count);
        for (auto& w : words) w = static_cast<std::uint32_t>(rng());
        SCOPED_TRACE(std::string(hash_function_name(f)) + " words=" + std::to_string(count) +
                     " rounds=" + std::to_string(rounds));
        EXPECT_EQ(hash_words<std::uint32_t>(f, words.data(), count, rounds),
                  reference<std::uint32_t>(f, words, rounds));
        EXPECT_EQ(hash_words<std::uint64_t>(f, words.data(), count, rounds),
                  reference<std::uint64_t>(f, words, rounds));
      }
    }
  }
}

TEST(SeedFamilies, HandWorkedValues) {
  const std::uint32_t w[2] = {3, 5};
  EXPECT_EQ((hash_words<HashFunction::add, std::uint32_t>(w, 2)), 8u);
  EXPECT_EQ((hash_words<HashFunction::mult, std::uint32_t>(w, 2)), 1u + (1u + 1u * 4u) * 6u);  // 31
  EXPECT_EQ((hash_words<HashFunction::xor_, std::uint32_t>(w, 2)), 6u);
  EXPECT_EQ((hash_words<HashFunction::mult_xor, std::uint32_t>(w, 2)), (1u + 4u) ^ 5u);  // 0
  // Shift at 64 bits: offsets 3 then (3 + 5) mod 33 = 8.
  EXPECT_EQ((hash_words<HashFunction::add_shift, std::uint64_t>(w, 2)), (3ull << 3) + (5ull << 8));
  // HW xor at 32 bits: rotl(3, 3) = 24, reversed; then ^ rotl(5, 8) = 0x500, reversed.
  EXPECT_EQ((hash_words<HashFunction::xor_hw, std::uint32_t>(w, 2)),
            bitrev<std::uint32_t>(bitrev<std::uint32_t>(24u) ^ 0x500u));
}

TEST(SeedFamilies, ShiftEqualsPlainAt32BitsAndNRoundsRepeatTheRecord) {
  std::mt19937_64 rng(5);
  std::vector<std::uint32_t> words(5);
  for (auto& w : words) w = static_cast<std::uint32_t>(rng());
  std::vector<std::uint32_t> twice = words;
  twice.insert(twice.end(), words.begin(), words.end());
  EXPECT_EQ((hash_words<HashFunction::xor_shift, std::uint32_t>(words.data(), 5)),
            (hash_words<HashFunction::xor_, std::uint32_t>(words.data(), 5)));
  EXPECT_NE((hash_words<HashFunction::xor_shift, std::uint64_t>(words.data(), 5)),
            (hash_words<HashFunction::xor_, std::uint64_t>(words.data(), 5)));
  for (HashFunction f : kSeedFunctions)
    EXPECT_EQ(hash_words<std::uint64_t>(f, words.data(), 5, 2), hash_words<std::uint64_t>(f, twice.data(), 10, 1))
        << hash_function_name(f);
}

TEST(Fmix64Record, OneAndTwoWordRecordsNeverCollide) {
  const std::uint32_t a[2] = {1, 2};
  const std::uint32_t b[2] = {2, 1};
  EXPECT_NE(fmix64_words(a, 2), fmix64_words(b, 2));
  EXPECT_EQ(fmix64_words(a, 2), fmix64(kFmixRecordStart ^ (1ull | (2ull << 32))));
  const std::uint32_t zero = 0;
  EXPECT_NE(fmix64_words(&zero, 1), 0u);
  EXPECT_EQ(fmix64(0), 0u);  // why the record version does not start at 0
}

TEST(HashNames, EveryNameParsesAndPrintsBack) {
  for (const auto& name : hash_function_names()) {
    const HashSpec spec = parse_hash_spec(name, 3);
    EXPECT_EQ(hash_spec_name(spec), name);
    EXPECT_EQ(spec.rounds, name.starts_with("n_") ? 3 : 1);
  }
  EXPECT_EQ(parse_hash_spec("n_xor_hw").rounds, kDefaultNRounds);
  EXPECT_EQ(parse_hash_function("xor"), HashFunction::xor_);
  EXPECT_EQ(hash_function_name(HashFunction::mult_xor_hw), "mult_xor_hw");
}

TEST(HashNames, UnknownNamesSayWhatIsValid) {
  try {
    parse_hash_spec("xor_hv", 2, "hash.function");
    FAIL() << "no error";
  } catch (const UsageError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("hash.function"), std::string::npos) << message;
    EXPECT_NE(message.find("did you mean 'xor_hw'"), std::string::npos) << message;
    EXPECT_NE(message.find("fnv1a, add, add_shift"), std::string::npos) << message;
    EXPECT_NE(message.find("n_mult_xor_hw"), std::string::npos) << message;
  }
  EXPECT_THROW(parse_hash_spec("n_fnv1a"), UsageError);
  EXPECT_THROW(parse_hash_spec("n_fmix64"), UsageError);
  EXPECT_THROW(parse_hash_spec("n_xor", 0), UsageError);
  EXPECT_THROW(parse_hash_spec(""), UsageError);
  EXPECT_EQ(parse_hash_width(32), 32);
  EXPECT_THROW(parse_hash_width(16), UsageError);
}

}  // namespace
}  // namespace subscale::hash
