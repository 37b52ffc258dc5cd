// Test entry point. SystemC's library provides main() and calls sc_main, so GoogleTest runs from
// here; each test that elaborates SystemC modules uses support/systemc_fixture.h.
#include <gtest/gtest.h>
#include <systemc>

#include <cstdlib>

int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    // Tests find the source tree through the environment (ctest sets it); a test binary run by
    // hand gets the tree it was built from. The path is compiled into this file only, so the
    // other objects do not depend on where the tree sits (ccache can share them between clones).
    setenv("ASCENDSIM_SOURCE_DIR", ASCENDSIM_SOURCE_DIR, 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
