# Board firmware above the rules core: card tags,
# the board layout, and hardware behind small interfaces with simulated twins.
