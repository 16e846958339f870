// Thin main: everything lives in spinup_core so that tests run the same code in-process.
#include <iostream>

#include "cli/cli.h"

int main(int argc, char** argv) { return spinup::RunCli(argc, argv, std::cout, std::cerr); }
