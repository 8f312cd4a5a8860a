"""The match logs on the board's flash (docs/protocol.md, "Match logs on
flash"), in parts that import only downwards:

  records   the record format: encode, walk, verify (the host reads logs
            with it too)
  names     the names in logs/ and what each is
  flash     the board's filesystem as the logs use it (os over littlefs)
  lfs       littlefs's arithmetic: the blocks a file or a folder takes
  repair    what a folder not as the board left it needs (rarely loaded)
  archive   finished matches packed into append-only archive files
  pack      the packing, in bounded steps on quiet loop ticks
  folder    the folder's index: which logs there are, where each lives,
            pulled or not; LOGS pages, sizes, reads, DEL
  writer    the log of the match in play (MatchLog), a Board listener
"""
