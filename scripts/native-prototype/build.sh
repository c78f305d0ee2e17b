#!/bin/sh
# Builds canon.node against Node's own headers (/usr/include/node) and Debian's RDKit 2022.09
# (apt-get install librdkit-dev). node-gyp (binding.gyp) builds the same thing.
set -e
cd "$(dirname "$0")"
mkdir -p build
g++ -O2 -std=c++17 -shared -fPIC -DNODE_GYP_MODULE_NAME=canon -DBUILDING_NODE_EXTENSION \
  -I/usr/include/node -I/usr/include/rdkit canon.cc -o build/canon.node \
  -L/usr/lib -lRDKitSmilesParse -lRDKitGraphMol -lRDKitRDGeneral
echo "built $(pwd)/build/canon.node"
