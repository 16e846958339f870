# Writes a C++ file holding each rules file's name and contents, so the binary carries its rules.
set(body "// Generated from rules/*.json by cmake/embed_rules.cmake; do not edit.\n#include \"logs/embedded_rules.h\"\n\nnamespace spinup {\n\nconst std::vector<EmbeddedRulesFile>& EmbeddedRulesFiles() {\n  static const std::vector<EmbeddedRulesFile> files = {\n")
foreach(f ${FILES})
  get_filename_component(name ${f} NAME)
  file(READ ${f} content)
  # Raw string delimiter chosen so it cannot occur in JSON rules.
  string(APPEND body "      {\"${name}\", R\"spinup_rules(${content})spinup_rules\"},\n")
endforeach()
string(APPEND body "  };\n  return files;\n}\n\n}  // namespace spinup\n")
file(WRITE ${OUT} "${body}")
