// ascendsim command line: parses arguments and calls the engine; nothing else lives here.
#include <systemc>

#include <iostream>

int sc_main(int argc, char* argv[]) {
    std::cout << "ascendsim " << ASCENDSIM_VERSION << "\n";
    return 0;
}
