// Test entry point. SystemC's library provides main() and calls sc_main, so GoogleTest runs from
// here; each test that elaborates SystemC modules uses support/systemc_fixture.h.
#include <gtest/gtest.h>
#include <systemc>

#include <cstdlib>

int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
