//===--- main.cpp - devport entry point -----------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "tools/devport/Cli.h"

int main(int Argc, char **Argv) { return devport::runMain(Argc, Argv); }
