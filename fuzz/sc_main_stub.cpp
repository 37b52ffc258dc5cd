// libsystemc.so (linked through the model libraries) refers to sc_main; the fuzz targets never
// start a simulation, libFuzzer's main runs instead.
extern "C" int sc_main(int, char**) { return 0; }
