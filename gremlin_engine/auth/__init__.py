"""Who is asking, and what they may do (issue 19).

`principal` holds the identity every door attaches to a request's execution context.
The user, group, target, belong and access records, passwords and tokens, and the
permission model that turns a user's role into checks inside the engine live beside it.
"""
