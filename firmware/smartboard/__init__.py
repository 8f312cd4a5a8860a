# Board firmware above the rules core (issue 3, in progress): card tags,
# the board layout, and hardware behind small interfaces with simulated twins.
