// The autograd records of the L2 timeline (autograd_tensors.h): a forward op's saved tensors and a
// backward node's touched tensors.
#include <gtest/gtest.h>

#include "sim/replay/run/autograd_tensors.h"

namespace ascendsim {
namespace {

const TensorKey kX{"32;64", "FLOAT", "ND"};
const TensorKey kY{"32;32", "FLOAT", "ND"};

// A tensor the forward op read once, of an identity it did not write, is the saved one.
TEST(L2AutogradTensors, ASavedTensorIsTheOneReadOfItsIdentity) {
    SavedTensors saved;
    saved.noteRead(kX, 7);
    EXPECT_EQ(saved.savedTensor(kX), 7u);
    EXPECT_TRUE(saved.readIdentity(kX));
    EXPECT_FALSE(saved.readIdentity(kY));
    saved.noteRead(kX, 7);  // the same tensor again
    EXPECT_EQ(saved.savedTensor(kX), 7u);
    saved.noteRead(kX, 8);  // another of that identity: not named
    EXPECT_EQ(saved.savedTensor(kX), kUnknownTensor);
}

// An identity the op also wrote is not named as saved; its one output is named as the output.
TEST(L2AutogradTensors, AWrittenIdentityIsNoSavedTensor) {
    SavedTensors saved;
    saved.noteRead(kY, 3);
    saved.noteWritten(kY, 4);
    EXPECT_EQ(saved.savedTensor(kY), kUnknownTensor);
    EXPECT_EQ(saved.outputTensor(kY), 4u);
    saved.noteWritten(kY, 5);
    EXPECT_EQ(saved.outputTensor(kY), kUnknownTensor);
    EXPECT_EQ(saved.outputTensor(kX), kUnknownTensor);
}

// A new walk forgets what the last one recorded.
TEST(L2AutogradTensors, ANewWalkStartsEmpty) {
    SavedTensors saved;
    saved.noteRead(kX, 1);
    saved.startWalk(0);
    EXPECT_TRUE(saved.readIdentity(kX));
    saved.startWalk(1);
    EXPECT_FALSE(saved.readIdentity(kX));
    NodeTensors node;
    node.touched.push_back({kX, 8192, 1});
    node.startWalk(1);
    EXPECT_TRUE(node.touched.empty());
}

// A plain-layout input of another shape with a touched tensor's dtype and bytes is a view of the
// newest such tensor still held and not claimed.
TEST(L2AutogradTensors, AViewSourceIsTheNewestHeldTensorOfItsBytes) {
    TensorLru lru(1024 * 1024);
    const void* x = lru.add(kX, 8192, "k1", TensorWriter{});
    NodeTensors node;
    node.touched.push_back({kX, 8192, lru.idOf(x)});
    const TensorKey view{"2048", "FLOAT", "ND"};
    EXPECT_EQ(node.viewSource(lru, view, 8192, {}), x);
    EXPECT_EQ(node.viewSource(lru, view, 4096, {}), nullptr);                          // other bytes
    EXPECT_EQ(node.viewSource(lru, {"2048", "FLOAT16", "ND"}, 8192, {}), nullptr);     // other dtype
    EXPECT_EQ(node.viewSource(lru, {"2048", "FLOAT", "NC1HWC0"}, 8192, {}), nullptr);  // not plain
    EXPECT_EQ(node.viewSource(lru, kX, 8192, {}), nullptr);                            // same shape: no view
    EXPECT_EQ(node.viewSource(lru, view, 8192, {x}), nullptr);                         // claimed
}

}  // namespace
}  // namespace ascendsim
