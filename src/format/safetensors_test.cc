#include "format/safetensors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace spinup {
namespace {

// A whole file: 8-byte little-endian length, header, `data` zero bytes.
std::string File(const std::string& header, uint64_t data) {
  std::string f(8, '\0');
  uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) f[static_cast<size_t>(i)] = static_cast<char>(n >> (8 * i));
  return f + header + std::string(data, '\0');
}

std::vector<std::string> Kinds(const SafetensorsHeader& h) {
  std::vector<std::string> k;
  for (const auto& p : h.problems) k.emplace_back(ProblemKindName(p.kind));
  return k;
}

TEST(SafetensorsDtype, BitsOfEveryDefinedDtype) {
  EXPECT_EQ(SafetensorsDtypeBits("F64"), 64u);
  EXPECT_EQ(SafetensorsDtypeBits("F32"), 32u);
  EXPECT_EQ(SafetensorsDtypeBits("F16"), 16u);
  EXPECT_EQ(SafetensorsDtypeBits("BF16"), 16u);
  EXPECT_EQ(SafetensorsDtypeBits("I64"), 64u);
  EXPECT_EQ(SafetensorsDtypeBits("U64"), 64u);
  EXPECT_EQ(SafetensorsDtypeBits("I32"), 32u);
  EXPECT_EQ(SafetensorsDtypeBits("U32"), 32u);
  EXPECT_EQ(SafetensorsDtypeBits("I16"), 16u);
  EXPECT_EQ(SafetensorsDtypeBits("U16"), 16u);
  EXPECT_EQ(SafetensorsDtypeBits("I8"), 8u);
  EXPECT_EQ(SafetensorsDtypeBits("U8"), 8u);
  EXPECT_EQ(SafetensorsDtypeBits("BOOL"), 8u);
  EXPECT_EQ(SafetensorsDtypeBits("F8_E4M3"), 8u);
  EXPECT_EQ(SafetensorsDtypeBits("F8_E5M2"), 8u);
  EXPECT_EQ(SafetensorsDtypeBits("F8_E8M0"), 8u);
  EXPECT_EQ(SafetensorsDtypeBits("F6_E2M3"), 6u);
  EXPECT_EQ(SafetensorsDtypeBits("F6_E3M2"), 6u);
  EXPECT_EQ(SafetensorsDtypeBits("F4"), 4u);
  EXPECT_EQ(SafetensorsDtypeBits("C64"), 64u);
  EXPECT_EQ(SafetensorsDtypeBits("bf16"), 0u);
  EXPECT_EQ(SafetensorsDtypeBits("F7"), 0u);
}

TEST(SafetensorsParse, ValidHeaderWithMetadata) {
  std::string header =
      R"({"__metadata__":{"format":"pt"},"b":{"dtype":"F32","shape":[2,3],"data_offsets":[8,32]},)"
      R"("a":{"dtype":"I64","shape":[],"data_offsets":[0,8]},"z":{"dtype":"F4","shape":[4],"data_offsets":[32,34]}})";
  std::string f = File(header, 34);
  SafetensorsHeader h = ParseSafetensorsFile(f, f.size());
  ASSERT_TRUE(h.valid);
  EXPECT_TRUE(h.problems.empty()) << h.problems[0].message;
  ASSERT_EQ(h.tensors.size(), 3u);
  EXPECT_EQ(h.tensors[0].name, "a");  // sorted by offset
  EXPECT_EQ(h.tensors[1].name, "b");
  EXPECT_EQ(h.tensors[1].elements(), 6u);
  EXPECT_EQ(h.tensors[1].file_begin, 8 + header.size() + 8);
  EXPECT_EQ(h.tensors[2].dtype_bits, 4u);
  EXPECT_EQ(h.metadata.at("format"), "pt");
  EXPECT_EQ(h.header_len, header.size());
}

TEST(SafetensorsParse, ReportsEveryProblemNotJustTheFirst) {
  // unknown dtype, shape mismatch, overlap and a gap in one header.
  std::string header = R"({"a":{"dtype":"F7","shape":[2],"data_offsets":[0,8]},)"
                       R"("b":{"dtype":"F32","shape":[2],"data_offsets":[8,20]},)"
                       R"("c":{"dtype":"F32","shape":[2],"data_offsets":[16,24]},)"
                       R"("d":{"dtype":"U8","shape":[6],"data_offsets":[30,36]}})";
  std::string f = File(header, 36);
  auto kinds = Kinds(ParseSafetensorsFile(f, f.size()));
  std::sort(kinds.begin(), kinds.end());
  EXPECT_EQ(kinds, (std::vector<std::string>{"gap", "overlap", "shape_mismatch", "unknown_dtype"}));
}

TEST(SafetensorsParse, FileLevelProblems) {
  EXPECT_EQ(Kinds(ParseSafetensorsFile("", 0)), std::vector<std::string>{"empty_file"});
  std::string lfs = "version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 9\n";
  EXPECT_EQ(Kinds(ParseSafetensorsFile(lfs, lfs.size())), std::vector<std::string>{"lfs_pointer"});
  EXPECT_EQ(Kinds(ParseSafetensorsFile("abc", 3)), std::vector<std::string>{"truncated"});
  std::string huge(8, '\xff');
  EXPECT_EQ(Kinds(ParseSafetensorsFile(huge, 100)), std::vector<std::string>{"header_invalid"});
  std::string f = File("{}", 0);
  EXPECT_EQ(Kinds(ParseSafetensorsFile(f.substr(0, 9), 9)),
            std::vector<std::string>{"header_invalid"});  // length 2 but one byte left
  EXPECT_EQ(Kinds(ParseSafetensorsFile(File("[1,2]", 0), 13)),
            std::vector<std::string>{"header_invalid"});
  EXPECT_EQ(Kinds(ParseSafetensorsFile(File("{\"a\":", 0), 13)),
            std::vector<std::string>{"header_invalid"});
  // Over the cap: refused before parsing.
  std::string big(8, '\0');
  uint64_t n = kMaxSafetensorsHeaderBytes + 1;
  for (int i = 0; i < 8; ++i) big[static_cast<size_t>(i)] = static_cast<char>(n >> (8 * i));
  auto h = ParseSafetensorsFile(big, n + 8);
  EXPECT_EQ(Kinds(h), std::vector<std::string>{"header_invalid"});
  EXPECT_NE(h.problems[0].message.find("cap"), std::string::npos);
}

TEST(SafetensorsParse, TruncatedTrailingAndReversed) {
  std::string header = R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})";
  std::string full = File(header, 16);
  EXPECT_TRUE(ParseSafetensorsFile(full, full.size()).problems.empty());
  // File shorter than the header says.
  EXPECT_EQ(Kinds(ParseSafetensorsHeader(header, full.size() - 4)),
            std::vector<std::string>{"truncated"});
  // Bytes after the last tensor.
  EXPECT_EQ(Kinds(ParseSafetensorsHeader(header, full.size() + 4)),
            std::vector<std::string>{"gap"});
  std::string reversed = R"({"a":{"dtype":"F32","shape":[0],"data_offsets":[16,0]}})";
  EXPECT_EQ(Kinds(ParseSafetensorsHeader(reversed, 8 + reversed.size())),
            std::vector<std::string>{"out_of_bounds"});
}

TEST(SafetensorsParse, OverflowingShapesAndOffsetsDoNotWrap) {
  std::string header =
      R"({"a":{"dtype":"F64","shape":[4294967296,4294967296,16],"data_offsets":[0,0]}})";
  EXPECT_EQ(Kinds(ParseSafetensorsHeader(header, 8 + header.size())),
            std::vector<std::string>{"shape_mismatch"});
  std::string off =
      R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[18446744073709551614,18446744073709551615]}})";
  auto kinds = Kinds(ParseSafetensorsHeader(off, 8 + off.size()));
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "out_of_bounds"), kinds.end());
}

TEST(SafetensorsParse, StructureErrorsNameTheTensor) {
  std::string header = R"({"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]},"b":5,)"
                       R"("c":{"dtype":"F32","shape":[1]},"__metadata__":{"x":1}})";
  auto h = ParseSafetensorsHeader(header, 8 + header.size());
  ASSERT_EQ(h.problems.size(), 4u);
  for (const auto& p : h.problems) EXPECT_EQ(p.kind, ProblemKind::kHeaderInvalid);
  std::vector<std::string> tensors;
  for (const auto& p : h.problems) tensors.push_back(p.tensor.value_or("-"));
  std::sort(tensors.begin(), tensors.end());
  EXPECT_EQ(tensors, (std::vector<std::string>{"-", "a", "b", "c"}));
}

TEST(SafetensorsParse, SubByteDtypesMustFillWholeBytes) {
  std::string odd = R"({"a":{"dtype":"F4","shape":[3],"data_offsets":[0,2]}})";
  EXPECT_EQ(Kinds(ParseSafetensorsHeader(odd, 8 + odd.size() + 2)),
            std::vector<std::string>{"shape_mismatch"});
  std::string f6 = R"({"a":{"dtype":"F6_E2M3","shape":[4],"data_offsets":[0,3]}})";
  EXPECT_TRUE(ParseSafetensorsHeader(f6, 8 + f6.size() + 3).problems.empty());
}

}  // namespace
}  // namespace spinup
