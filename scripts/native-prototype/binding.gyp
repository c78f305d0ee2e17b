{
  "targets": [
    {
      "target_name": "canon",
      "sources": ["canon.cc"],
      "include_dirs": ["/usr/include/rdkit"],
      "libraries": ["-L/usr/lib", "-lRDKitSmilesParse", "-lRDKitGraphMol", "-lRDKitRDGeneral"],
      "cflags_cc": ["-std=c++17", "-O2", "-fexceptions"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++14", "-std=gnu++17"]
    }
  ]
}
