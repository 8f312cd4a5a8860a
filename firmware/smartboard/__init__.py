"""The board firmware above the rules core: the loop, the referee, the LEDs,
the link and the match logs; hardware behind small interfaces."""
