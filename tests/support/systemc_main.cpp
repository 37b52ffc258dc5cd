// Test entry point. SystemC's library provides main() and calls sc_main, so GoogleTest runs from
// here; each test that elaborates SystemC modules uses support/systemc_fixture.h.
#include <gtest/gtest.h>
#include <systemc>

int sc_main(int argc, char* argv[]) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
