// trailing dots, leading dots and comments all continue one statement
g.V().
  hasLabel("person").   // a comment after a dot
  out("knows")
  .values("name")       /* a block
                           comment */
  .fold()
